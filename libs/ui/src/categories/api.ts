import type { CategoriesResponse, MessageResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Category, CategoryDetails } from './tree';

/** SPEC section 9: the category tree is cached for 12 hours. */
const CACHE_MS = 12 * 60 * 60_000;
const STORAGE_KEY = 'cartable.categories.hierarchy';

export const categoryKeys = {
  all: ['categories'] as const,
  hierarchy: ['categories', 'hierarchy'] as const,
  details: (id: number) => ['categories', 'details', id] as const,
};

interface Stored {
  savedAt: number;
  categories: Category[];
}

/** The tree kept in the browser (12 h): no download on each visit over mobile data. */
function readStored(): Stored | undefined {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const value = JSON.parse(raw) as Stored;
    if (!Array.isArray(value?.categories) || typeof value.savedAt !== 'number') return undefined;
    if (Date.now() - value.savedAt > CACHE_MS) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

function store(categories: Category[]) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ savedAt: Date.now(), categories } satisfies Stored));
  } catch {
    // storage full or disabled: the in-memory cache still works
  }
}

export function forgetStoredHierarchy() {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // ignore
  }
}

export async function fetchHierarchy(signal?: AbortSignal): Promise<Category[]> {
  const { categories } = await api.get<CategoriesResponse>('/categories/hierarchy', { signal });
  store(categories);
  return categories;
}

/** Roots with nested children; served from the 12 h browser cache when fresh. */
export const categoryHierarchyQuery = () =>
  queryOptions({
    queryKey: categoryKeys.hierarchy,
    queryFn: ({ signal }) => fetchHierarchy(signal),
    initialData: () => readStored()?.categories,
    initialDataUpdatedAt: () => readStored()?.savedAt,
    staleTime: CACHE_MS,
    gcTime: CACHE_MS,
  });

export function useCategoryHierarchy() {
  return useQuery(categoryHierarchyQuery());
}

export function fetchCategoryDetails(id: number, signal?: AbortSignal): Promise<CategoryDetails> {
  return api.get<CategoryDetails>(`/categories/${id}/details`, { signal });
}

export const categoryDetailsQuery = (id: number | null) =>
  queryOptions({
    queryKey: categoryKeys.details(id ?? 0),
    queryFn: ({ signal }) => fetchCategoryDetails(id as number, signal),
    enabled: id !== null,
  });

export function addParent(categoryId: number, parentId: number) {
  return api.post<MessageResponse>('/admin/categories/hierarchy/add-parent', {
    category_id: categoryId,
    parent_id: parentId,
  });
}

export function removeParent(categoryId: number, parentId: number) {
  return api.delete<MessageResponse>('/admin/categories/hierarchy/remove-parent', {
    category_id: categoryId,
    parent_id: parentId,
  });
}

interface Handlers {
  onSuccess: (answer: { message?: string }) => void;
  onError: (error: unknown) => void;
}

/** A change to the graph: the 12-hour browser copy is dropped and every category query fetched again. */
function useHierarchyChange<Variables>(
  mutationFn: (variables: Variables) => Promise<{ message?: string }>,
  handlers: Handlers,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (answer) => {
      handlers.onSuccess(answer);
      forgetStoredHierarchy();
      await queryClient.invalidateQueries({ queryKey: categoryKeys.all });
    },
    onError: handlers.onError,
  });
}

export const useAddParent = (handlers: Handlers) =>
  useHierarchyChange(
    ({ categoryId, parentId }: { categoryId: number; parentId: number }) => addParent(categoryId, parentId),
    handlers,
  );

export const useRemoveParent = (handlers: Handlers) =>
  useHierarchyChange(
    ({ categoryId, parentId }: { categoryId: number; parentId: number }) => removeParent(categoryId, parentId),
    handlers,
  );
