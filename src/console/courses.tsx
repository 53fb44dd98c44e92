// The Courses view: every course (drafts too) with its status, enrolled learners, completions and
// completion rate; for the course chosen (the newest at first), its completions per UTC day over
// the last 30 days and each lesson's completed count. Read when it opens and on Refresh; the live
// feed shows the events as they happen.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Course } from '../client/index.js';
import { BarChart, type Series } from './chart.js';
import { useConsole } from './context.js';
import { COMPLETION_RANGE, completionSeries, courseDetail, coursePage, type CoursePage, type LessonStats, type Stats } from './courses-data.js';
import { FormError } from './field.js';
import { utcDateTime } from './time.js';
import { useAction } from './use-action.js';

/** `100 %`, `33 %`: a rate from 0 to 1 as a whole percentage (the space does not break). */
const percent = (rate: number): string => `${Math.round(rate * 100)}\u00a0%`;

export function Courses() {
  const { client } = useConsole();
  const [list, setList] = useState<CoursePage>();
  const [chosen, setChosen] = useState<string>();
  /** Bumped by Refresh: the chosen course's details are read again too. */
  const [round, setRound] = useState(0);

  const load = useAction(
    useCallback(async () => {
      const page = await coursePage(client);
      setList(page);
      setRound((r) => r + 1);
    }, [client]),
  );
  const more = useAction(
    useCallback(async () => {
      if (!list?.nextCursor) return;
      const page = await coursePage(client, list.nextCursor);
      const shown = new Set(list.items.map((i) => i.course.id));
      setList({ items: [...list.items, ...page.items.filter((i) => !shown.has(i.course.id))], nextCursor: page.nextCursor });
    }, [client, list]),
  );
  const { run: reload } = load;
  useEffect(() => void reload(), [reload]);

  const items = list?.items ?? [];
  const selected = items.find((i) => i.course.id === chosen) ?? items[0];
  return (
    <section class="card courses" aria-labelledby="courses-title">
      <div class="section-head">
        <h2 id="courses-title">Courses</h2>
        <div class="actions">
          <button type="button" class="secondary" disabled={load.busy} onClick={() => void reload()}>
            Refresh
          </button>
        </div>
      </div>
      <FormError message={load.problem?.message} />
      {!list ? (
        <p class="muted">{load.busy ? 'Loading…' : null}</p>
      ) : items.length === 0 ? (
        <NoCourses />
      ) : (
        <>
          <table class="table stack" aria-label="Courses">
            <thead>
              <tr>
                <th scope="col">Course</th>
                <th scope="col" class="num">Status</th>
                <th scope="col" class="num">Lessons</th>
                <th scope="col" class="num">Enrolled</th>
                <th scope="col" class="num">Completed</th>
                <th scope="col" class="num">Completion rate</th>
              </tr>
            </thead>
            <tbody>
              {items.map(({ course, stats }) => (
                <CourseLine key={course.id} course={course} stats={stats} selected={course.id === selected?.course.id} onChoose={() => setChosen(course.id)} />
              ))}
            </tbody>
          </table>
          {list.nextCursor ? (
            <p>
              <button type="button" class="secondary" disabled={more.busy} onClick={() => void more.run()}>
                More courses
              </button>
            </p>
          ) : null}
          <FormError message={more.problem?.message} />
          {selected ? <CourseDetail key={`${selected.course.id}/${round}`} course={selected.course} /> : null}
        </>
      )}
    </section>
  );
}

function CourseLine({ course, stats, selected, onChoose }: { course: Course; stats: Stats; selected: boolean; onChoose: () => void }) {
  return (
    <tr class={selected ? 'chosen' : undefined} data-course-id={course.id}>
      <td>
        <button type="button" class="link" aria-pressed={selected} title="Show its completions and lessons" onClick={onChoose}>
          {course.title}
        </button>
        <code class="id">{course.id}</code>
      </td>
      <td data-label="Status" class="num">
        {course.status === 'PUBLISHED' ? (
          <span class="badge ok" title={course.publishedAt ? `Published ${utcDateTime(course.publishedAt)}` : undefined}>
            published
          </span>
        ) : (
          <span class="badge" title={`Created ${utcDateTime(course.createdAt)}`}>
            draft
          </span>
        )}
      </td>
      <td data-label="Lessons" class="num">{course.lessonIds.length}</td>
      <td data-label="Enrolled" class="num">{stats.enrolled}</td>
      <td data-label="Completed" class="num">{stats.completed}</td>
      <td data-label="Completion rate" class="num">{percent(stats.completionRate)}</td>
    </tr>
  );
}

function NoCourses() {
  return (
    <div class="empty-state">
      <p>
        <strong>No courses yet.</strong> Create one as an ADMIN with <code>POST /api/v1/courses</code> and a body such as{' '}
        <code>{'{"title": "Intro to SQL"}'}</code>, give it published lessons with <code>{'PUT /api/v1/courses/{id}/lessons'}</code>{' '}
        <code>{'{"lessonIds": ["les_…"]}'}</code>, then publish it with <code>{'POST /api/v1/courses/{id}/publish'}</code> (or the GraphQL
        mutations <code>createCourse</code>, <code>setCourseLessons</code>, <code>publishCourse</code>).
      </p>
      <p>
        See <a href="/reference#tag/courses">the API reference</a>. Refresh this list once it is created.
      </p>
    </div>
  );
}

interface Detail {
  stats: Stats;
  lessons: LessonStats[];
  completions: { series: Series; partial: boolean };
}

function CourseDetail({ course }: { course: Course }) {
  const { client } = useConsole();
  const [detail, setDetail] = useState<Detail>();
  const load = useAction(
    useCallback(async () => {
      const [read, completions] = await Promise.all([courseDetail(client, course.id), completionSeries(client, course.id)]);
      setDetail({ ...read, completions });
    }, [client, course.id]),
  );
  const { run } = load;
  useEffect(() => void run(), [run]);

  const total = detail?.completions.series.counts.reduce((a, b) => a + b, 0);
  return (
    <section class="course-detail" aria-labelledby="course-detail-title">
      <h3 id="course-detail-title">{course.title}</h3>
      <FormError message={load.problem?.message} />
      {!detail ? (
        load.busy ? <p class="muted">Loading…</p> : null
      ) : (
        <>
          <p class="muted">
            <strong class="total">{total}</strong> {total === 1 ? 'completion' : 'completions'} in the {COMPLETION_RANGE.label}, by day
            {detail.completions.partial ? ' (partial: more completions were recorded in this range than the console reads)' : ''}
          </p>
          <BarChart series={detail.completions.series} step={COMPLETION_RANGE.step} label="Completions by day" className="completion-chart" />
          <LessonTable lessons={detail.lessons} enrolled={detail.stats.enrolled} />
        </>
      )}
    </section>
  );
}

function LessonTable({ lessons, enrolled }: { lessons: LessonStats[]; enrolled: number }) {
  if (!lessons.length) return <p class="muted">This course has no lessons yet: set them with <code>{'PUT /api/v1/courses/{id}/lessons'}</code>.</p>;
  return (
    <table class="table stack" aria-label="Lessons of the course">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Lesson</th>
          <th scope="col">Completed by</th>
        </tr>
      </thead>
      <tbody>
        {lessons.map((lesson, i) => (
          <tr key={lesson.lessonId} data-lesson-id={lesson.lessonId}>
            <td>{i + 1}</td>
            <td data-label="Lesson">
              {lesson.title ?? <span class="muted">(title not read)</span>} <code class="id">{lesson.lessonId}</code>
            </td>
            <td data-label="Completed by">
              {lesson.completed} <span class="muted">of {enrolled} enrolled</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
