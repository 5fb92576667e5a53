/** Shapes returned by POST /api/login and GET /api/user (SPEC section 3). */
export interface PermissionRef {
  slug: string;
}

export interface RoleRef {
  slug: string;
  name: string;
  permissions: PermissionRef[];
}

export interface User {
  id: string;
  name: string;
  email: string;
  username: string;
  profile_image: string | null;
  email_verified: boolean;
  is_admin: boolean;
  roles: RoleRef[];
  permissions: PermissionRef[];
  country_id: number | null;
  city_id: number | null;
}

export interface LoginResponse {
  access_token?: string | null;
  user?: User | null;
  two_factor_required?: boolean;
}
