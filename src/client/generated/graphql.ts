/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type CourseStatus =
  | 'DRAFT'
  | 'PUBLISHED';

export type LessonStatus =
  | 'DRAFT'
  | 'PUBLISHED';

export type Role =
  | 'ADMIN'
  | 'MEMBER';

export type Tier =
  | 'ENTERPRISE'
  | 'FREE'
  | 'PRO';

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { id: string, name: string, email: string, joined: string, role: Role, tier: Tier } };

export type UserQueryVariables = Exact<{
  id: string;
}>;


export type UserQuery = { user: { id: string, name: string, joined: string } | null };

export type LessonQueryVariables = Exact<{
  id: string;
}>;


export type LessonQuery = { lesson: { id: string, title: string, summary: string | null, body: string, status: LessonStatus, authorId: string, createdAt: string, publishedAt: string | null, updatedAt: string, author: { id: string, name: string, joined: string } } | null };

export type LessonsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type LessonsQuery = { lessons: { edges: Array<{ cursor: string, node: { id: string, title: string, summary: string | null, body: string, status: LessonStatus, authorId: string, createdAt: string, publishedAt: string | null, updatedAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CourseQueryVariables = Exact<{
  id: string;
  firstLessons?: number | null | undefined;
  afterLesson?: string | null | undefined;
}>;


export type CourseQuery = { course: { id: string, title: string, summary: string | null, status: CourseStatus, authorId: string, lessonIds: Array<string>, createdAt: string, publishedAt: string | null, updatedAt: string, author: { id: string, name: string, joined: string }, lessons: { edges: Array<{ cursor: string, node: { id: string, title: string, summary: string | null, status: LessonStatus, viewerCompletedAt: string | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } }, viewerEnrollment: { enrolledAt: string, completedAt: string | null, progress: { completed: number, total: number } } | null } | null };

export type CoursesQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type CoursesQuery = { courses: { edges: Array<{ cursor: string, node: { id: string, title: string, summary: string | null, status: CourseStatus, authorId: string, lessonIds: Array<string>, createdAt: string, publishedAt: string | null, updatedAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DocsQueryVariables = Exact<{ [key: string]: never; }>;


export type DocsQuery = { docs: Array<{ id: string, slug: string, title: string, url: string, updatedAt: string }> };

export type PageViewsQueryVariables = Exact<{
  path?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
}>;


export type PageViewsQuery = { pageViews: number };

export type UpdateMeMutationVariables = Exact<{
  name: string;
}>;


export type UpdateMeMutation = { updateMe: { id: string, name: string, email: string, joined: string, role: Role, tier: Tier } };

export type PublishLessonMutationVariables = Exact<{
  id: string;
}>;


export type PublishLessonMutation = { publishLesson: { id: string, title: string, status: LessonStatus, publishedAt: string | null, updatedAt: string } };

export type EnrollMutationVariables = Exact<{
  courseId: string;
}>;


export type EnrollMutation = { enroll: { courseId: string, userId: string, enrolledAt: string, completedAt: string | null, progress: { completed: number, total: number } } };

export type CompleteLessonMutationVariables = Exact<{
  lessonId: string;
}>;


export type CompleteLessonMutation = { completeLesson: { lessonId: string, userId: string, completedAt: string } };

export type RecordPageViewMutationVariables = Exact<{
  path: string;
}>;


export type RecordPageViewMutation = { recordPageView: boolean };

export type EventsSubscriptionVariables = Exact<{
  types?: Array<string> | string | null | undefined;
  after?: string | null | undefined;
}>;


export type EventsSubscription = { events: { id: string, event: string, timestamp: string, lessonId: string | null, userId: string | null, path: string | null, courseId: string | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    id
    name
    email
    joined
    role
    tier
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const UserDocument = new TypedDocumentString(`
    query User($id: ID!) {
  user(id: $id) {
    id
    name
    joined
  }
}
    `) as unknown as TypedDocumentString<UserQuery, UserQueryVariables>;
export const LessonDocument = new TypedDocumentString(`
    query Lesson($id: ID!) {
  lesson(id: $id) {
    id
    title
    summary
    body
    status
    authorId
    createdAt
    publishedAt
    updatedAt
    author {
      id
      name
      joined
    }
  }
}
    `) as unknown as TypedDocumentString<LessonQuery, LessonQueryVariables>;
export const LessonsDocument = new TypedDocumentString(`
    query Lessons($first: Int, $after: String) {
  lessons(first: $first, after: $after) {
    edges {
      cursor
      node {
        id
        title
        summary
        body
        status
        authorId
        createdAt
        publishedAt
        updatedAt
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<LessonsQuery, LessonsQueryVariables>;
export const CourseDocument = new TypedDocumentString(`
    query Course($id: ID!, $firstLessons: Int, $afterLesson: String) {
  course(id: $id) {
    id
    title
    summary
    status
    authorId
    lessonIds
    createdAt
    publishedAt
    updatedAt
    author {
      id
      name
      joined
    }
    lessons(first: $firstLessons, after: $afterLesson) {
      edges {
        cursor
        node {
          id
          title
          summary
          status
          viewerCompletedAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    viewerEnrollment {
      enrolledAt
      completedAt
      progress {
        completed
        total
      }
    }
  }
}
    `) as unknown as TypedDocumentString<CourseQuery, CourseQueryVariables>;
export const CoursesDocument = new TypedDocumentString(`
    query Courses($first: Int, $after: String) {
  courses(first: $first, after: $after) {
    edges {
      cursor
      node {
        id
        title
        summary
        status
        authorId
        lessonIds
        createdAt
        publishedAt
        updatedAt
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<CoursesQuery, CoursesQueryVariables>;
export const DocsDocument = new TypedDocumentString(`
    query Docs {
  docs {
    id
    slug
    title
    url
    updatedAt
  }
}
    `) as unknown as TypedDocumentString<DocsQuery, DocsQueryVariables>;
export const PageViewsDocument = new TypedDocumentString(`
    query PageViews($path: String, $from: DateTime, $to: DateTime) {
  pageViews(path: $path, from: $from, to: $to)
}
    `) as unknown as TypedDocumentString<PageViewsQuery, PageViewsQueryVariables>;
export const UpdateMeDocument = new TypedDocumentString(`
    mutation UpdateMe($name: String!) {
  updateMe(name: $name) {
    id
    name
    email
    joined
    role
    tier
  }
}
    `) as unknown as TypedDocumentString<UpdateMeMutation, UpdateMeMutationVariables>;
export const PublishLessonDocument = new TypedDocumentString(`
    mutation PublishLesson($id: ID!) {
  publishLesson(id: $id) {
    id
    title
    status
    publishedAt
    updatedAt
  }
}
    `) as unknown as TypedDocumentString<PublishLessonMutation, PublishLessonMutationVariables>;
export const EnrollDocument = new TypedDocumentString(`
    mutation Enroll($courseId: ID!) {
  enroll(courseId: $courseId) {
    courseId
    userId
    enrolledAt
    completedAt
    progress {
      completed
      total
    }
  }
}
    `) as unknown as TypedDocumentString<EnrollMutation, EnrollMutationVariables>;
export const CompleteLessonDocument = new TypedDocumentString(`
    mutation CompleteLesson($lessonId: ID!) {
  completeLesson(lessonId: $lessonId) {
    lessonId
    userId
    completedAt
  }
}
    `) as unknown as TypedDocumentString<CompleteLessonMutation, CompleteLessonMutationVariables>;
export const RecordPageViewDocument = new TypedDocumentString(`
    mutation RecordPageView($path: String!) {
  recordPageView(path: $path)
}
    `) as unknown as TypedDocumentString<RecordPageViewMutation, RecordPageViewMutationVariables>;
export const EventsDocument = new TypedDocumentString(`
    subscription Events($types: [String!], $after: ID) {
  events(types: $types, after: $after) {
    id
    event
    timestamp
    lessonId
    userId
    path
    courseId
  }
}
    `) as unknown as TypedDocumentString<EventsSubscription, EventsSubscriptionVariables>;