import type { Guards } from '@cartable/service-kit';
import type { ClassLists } from '../class-lists.ts';

/** What the class lists routes need: the guards and the module's services. */
export interface ClassListRouteDeps {
  guards: Guards;
  classLists: ClassLists;
}
