// The request-scoped loaders behind `Course.lessonIds` and `Course.lessons`: every course of a
// response in one SQL statement each, however many courses the response has.
import { dataloaderGetter } from '@pothos/plugin-dataloader';
import type { GraphQLContext } from '../../graphql/builder.js';
import { loadSamePages } from '../../graphql/page-batches.js';
import type { LessonPageRequest, PlacedLesson } from './lesson-pages.js';

type LessonPageKey = { courseId: string; page: LessonPageRequest };
type LessonPage = { items: PlacedLesson[]; hasMore: boolean };

/** Each course's lesson ids in course order. */
export const courseLessonIds = dataloaderGetter<string, string[], string>(
  undefined,
  // Pothos types a loader's context as any schema's; it is the request context the resolver passes in.
  async (courseIds, ctx) => {
    const byCourse = await (ctx as GraphQLContext).services.courses.lessonIdsOf({ courseIds });
    return courseIds.map((id) => byCourse.get(id)!);
  },
  undefined,
  false,
);

/** The page a key asks for, as text: equal for equal pages. */
const pageKey = ({ limit, afterPosition }: LessonPageRequest) => `${limit}:${afterPosition}`;

/** Each course's page of lessons: the keys asking for the same page (first, after) share one statement. */
export const courseLessonPages = dataloaderGetter<LessonPageKey, LessonPage, string>(
  { cacheKeyFn: ({ courseId, page }) => `${courseId}|${pageKey(page)}` },
  (keys, ctx) => loadLessonPages(keys, ctx as GraphQLContext),
  undefined,
  false,
);

const loadLessonPages = (keys: readonly LessonPageKey[], ctx: GraphQLContext) =>
  loadSamePages(keys, {
    pageKey,
    ownerOf: (key) => key.courseId,
    load: (courseIds, page) => ctx.services.courses.lessonPages({ courseIds, page }),
  });
