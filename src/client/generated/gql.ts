/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Me {\n    me { id name email joined role tier }\n  }\n": typeof types.MeDocument,
    "\n  query User($id: ID!) {\n    user(id: $id) { id name joined }\n  }\n": typeof types.UserDocument,
    "\n  query Lesson($id: ID!) {\n    lesson(id: $id) { id title summary body status authorId createdAt publishedAt updatedAt author { id name joined } }\n  }\n": typeof types.LessonDocument,
    "\n  query Lessons($first: Int, $after: String) {\n    lessons(first: $first, after: $after) {\n      edges {\n        cursor\n        node { id title summary body status authorId createdAt publishedAt updatedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.LessonsDocument,
    "\n  query Course($id: ID!, $firstLessons: Int, $afterLesson: String) {\n    course(id: $id) {\n      id title summary status authorId lessonIds createdAt publishedAt updatedAt\n      author { id name joined }\n      lessons(first: $firstLessons, after: $afterLesson) {\n        edges { cursor node { id title summary status viewerCompletedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n      viewerEnrollment { enrolledAt completedAt progress { completed total } }\n    }\n  }\n": typeof types.CourseDocument,
    "\n  query Courses($first: Int, $after: String) {\n    courses(first: $first, after: $after) {\n      edges {\n        cursor\n        node { id title summary status authorId lessonIds createdAt publishedAt updatedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.CoursesDocument,
    "\n  query Docs {\n    docs { id slug title url updatedAt }\n  }\n": typeof types.DocsDocument,
    "\n  query PageViews($path: String, $from: DateTime, $to: DateTime) {\n    pageViews(path: $path, from: $from, to: $to)\n  }\n": typeof types.PageViewsDocument,
    "\n  mutation UpdateMe($name: String!) {\n    updateMe(name: $name) { id name email joined role tier }\n  }\n": typeof types.UpdateMeDocument,
    "\n  mutation PublishLesson($id: ID!) {\n    publishLesson(id: $id) { id title status publishedAt updatedAt }\n  }\n": typeof types.PublishLessonDocument,
    "\n  mutation Enroll($courseId: ID!) {\n    enroll(courseId: $courseId) { courseId userId enrolledAt completedAt progress { completed total } }\n  }\n": typeof types.EnrollDocument,
    "\n  mutation CompleteLesson($lessonId: ID!) {\n    completeLesson(lessonId: $lessonId) { lessonId userId completedAt }\n  }\n": typeof types.CompleteLessonDocument,
    "\n  mutation RecordPageView($path: String!) {\n    recordPageView(path: $path)\n  }\n": typeof types.RecordPageViewDocument,
    "\n  subscription Events($types: [String!], $after: ID) {\n    events(types: $types, after: $after) { id event timestamp lessonId userId path courseId }\n  }\n": typeof types.EventsDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me { id name email joined role tier }\n  }\n": types.MeDocument,
    "\n  query User($id: ID!) {\n    user(id: $id) { id name joined }\n  }\n": types.UserDocument,
    "\n  query Lesson($id: ID!) {\n    lesson(id: $id) { id title summary body status authorId createdAt publishedAt updatedAt author { id name joined } }\n  }\n": types.LessonDocument,
    "\n  query Lessons($first: Int, $after: String) {\n    lessons(first: $first, after: $after) {\n      edges {\n        cursor\n        node { id title summary body status authorId createdAt publishedAt updatedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.LessonsDocument,
    "\n  query Course($id: ID!, $firstLessons: Int, $afterLesson: String) {\n    course(id: $id) {\n      id title summary status authorId lessonIds createdAt publishedAt updatedAt\n      author { id name joined }\n      lessons(first: $firstLessons, after: $afterLesson) {\n        edges { cursor node { id title summary status viewerCompletedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n      viewerEnrollment { enrolledAt completedAt progress { completed total } }\n    }\n  }\n": types.CourseDocument,
    "\n  query Courses($first: Int, $after: String) {\n    courses(first: $first, after: $after) {\n      edges {\n        cursor\n        node { id title summary status authorId lessonIds createdAt publishedAt updatedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.CoursesDocument,
    "\n  query Docs {\n    docs { id slug title url updatedAt }\n  }\n": types.DocsDocument,
    "\n  query PageViews($path: String, $from: DateTime, $to: DateTime) {\n    pageViews(path: $path, from: $from, to: $to)\n  }\n": types.PageViewsDocument,
    "\n  mutation UpdateMe($name: String!) {\n    updateMe(name: $name) { id name email joined role tier }\n  }\n": types.UpdateMeDocument,
    "\n  mutation PublishLesson($id: ID!) {\n    publishLesson(id: $id) { id title status publishedAt updatedAt }\n  }\n": types.PublishLessonDocument,
    "\n  mutation Enroll($courseId: ID!) {\n    enroll(courseId: $courseId) { courseId userId enrolledAt completedAt progress { completed total } }\n  }\n": types.EnrollDocument,
    "\n  mutation CompleteLesson($lessonId: ID!) {\n    completeLesson(lessonId: $lessonId) { lessonId userId completedAt }\n  }\n": types.CompleteLessonDocument,
    "\n  mutation RecordPageView($path: String!) {\n    recordPageView(path: $path)\n  }\n": types.RecordPageViewDocument,
    "\n  subscription Events($types: [String!], $after: ID) {\n    events(types: $types, after: $after) { id event timestamp lessonId userId path courseId }\n  }\n": types.EventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me { id name email joined role tier }\n  }\n"): typeof import('./graphql.js').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query User($id: ID!) {\n    user(id: $id) { id name joined }\n  }\n"): typeof import('./graphql.js').UserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Lesson($id: ID!) {\n    lesson(id: $id) { id title summary body status authorId createdAt publishedAt updatedAt author { id name joined } }\n  }\n"): typeof import('./graphql.js').LessonDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Lessons($first: Int, $after: String) {\n    lessons(first: $first, after: $after) {\n      edges {\n        cursor\n        node { id title summary body status authorId createdAt publishedAt updatedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): typeof import('./graphql.js').LessonsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Course($id: ID!, $firstLessons: Int, $afterLesson: String) {\n    course(id: $id) {\n      id title summary status authorId lessonIds createdAt publishedAt updatedAt\n      author { id name joined }\n      lessons(first: $firstLessons, after: $afterLesson) {\n        edges { cursor node { id title summary status viewerCompletedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n      viewerEnrollment { enrolledAt completedAt progress { completed total } }\n    }\n  }\n"): typeof import('./graphql.js').CourseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Courses($first: Int, $after: String) {\n    courses(first: $first, after: $after) {\n      edges {\n        cursor\n        node { id title summary status authorId lessonIds createdAt publishedAt updatedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): typeof import('./graphql.js').CoursesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Docs {\n    docs { id slug title url updatedAt }\n  }\n"): typeof import('./graphql.js').DocsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PageViews($path: String, $from: DateTime, $to: DateTime) {\n    pageViews(path: $path, from: $from, to: $to)\n  }\n"): typeof import('./graphql.js').PageViewsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateMe($name: String!) {\n    updateMe(name: $name) { id name email joined role tier }\n  }\n"): typeof import('./graphql.js').UpdateMeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PublishLesson($id: ID!) {\n    publishLesson(id: $id) { id title status publishedAt updatedAt }\n  }\n"): typeof import('./graphql.js').PublishLessonDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Enroll($courseId: ID!) {\n    enroll(courseId: $courseId) { courseId userId enrolledAt completedAt progress { completed total } }\n  }\n"): typeof import('./graphql.js').EnrollDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CompleteLesson($lessonId: ID!) {\n    completeLesson(lessonId: $lessonId) { lessonId userId completedAt }\n  }\n"): typeof import('./graphql.js').CompleteLessonDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecordPageView($path: String!) {\n    recordPageView(path: $path)\n  }\n"): typeof import('./graphql.js').RecordPageViewDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription Events($types: [String!], $after: ID) {\n    events(types: $types, after: $after) { id event timestamp lessonId userId path courseId }\n  }\n"): typeof import('./graphql.js').EventsDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
