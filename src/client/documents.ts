// The client's GraphQL operations. GraphQL Code Generator (`npm run generate:client`) types each
// graphql(`…`) call here against schema.graphql into ./generated/ (committed; CI fails when stale).
// Documents are plain strings at run time, so the client needs no GraphQL parser. Pass any of them,
// or your own typed document, to `client.query`.
import { graphql } from './generated/index.js';

export const MeDocument = graphql(`
  query Me {
    me { id name email joined role tier }
  }
`);

export const UserDocument = graphql(`
  query User($id: ID!) {
    user(id: $id) { id name joined }
  }
`);

export const LessonDocument = graphql(`
  query Lesson($id: ID!) {
    lesson(id: $id) { id title summary body status authorId createdAt publishedAt updatedAt author { id name joined } }
  }
`);

export const LessonsDocument = graphql(`
  query Lessons($first: Int, $after: String) {
    lessons(first: $first, after: $after) {
      edges {
        cursor
        node { id title summary body status authorId createdAt publishedAt updatedAt }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const CourseDocument = graphql(`
  query Course($id: ID!, $firstLessons: Int, $afterLesson: String) {
    course(id: $id) {
      id title summary status authorId lessonIds createdAt publishedAt updatedAt
      author { id name joined }
      lessons(first: $firstLessons, after: $afterLesson) {
        edges { cursor node { id title summary status viewerCompletedAt } }
        pageInfo { hasNextPage endCursor }
      }
      viewerEnrollment { enrolledAt completedAt progress { completed total } }
    }
  }
`);

export const CoursesDocument = graphql(`
  query Courses($first: Int, $after: String) {
    courses(first: $first, after: $after) {
      edges {
        cursor
        node { id title summary status authorId lessonIds createdAt publishedAt updatedAt }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const DocsDocument = graphql(`
  query Docs {
    docs { id slug title url updatedAt }
  }
`);

export const PageViewsDocument = graphql(`
  query PageViews($path: String, $from: DateTime, $to: DateTime) {
    pageViews(path: $path, from: $from, to: $to)
  }
`);

export const UpdateMeDocument = graphql(`
  mutation UpdateMe($name: String!) {
    updateMe(name: $name) { id name email joined role tier }
  }
`);

export const PublishLessonDocument = graphql(`
  mutation PublishLesson($id: ID!) {
    publishLesson(id: $id) { id title status publishedAt updatedAt }
  }
`);

export const EnrollDocument = graphql(`
  mutation Enroll($courseId: ID!) {
    enroll(courseId: $courseId) { courseId userId enrolledAt completedAt progress { completed total } }
  }
`);

export const CompleteLessonDocument = graphql(`
  mutation CompleteLesson($lessonId: ID!) {
    completeLesson(lessonId: $lessonId) { lessonId userId completedAt }
  }
`);

export const RecordPageViewDocument = graphql(`
  mutation RecordPageView($path: String!) {
    recordPageView(path: $path)
  }
`);

/** The live event stream (`client.events()`); `after` resumes after that event id. */
export const EventsDocument = graphql(`
  subscription Events($types: [String!], $after: ID) {
    events(types: $types, after: $after) { id event timestamp lessonId userId path courseId }
  }
`);
