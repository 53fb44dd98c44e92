// Reads the JSON report `npm test` wrote and fails unless every test file ran and passed. The exit
// code alone is not enough: a run whose global setup died with an unhandled error from Prisma's
// schema engine printed "No test files found" and exited 0, running nothing.
/* global process, console -- Node globals (the lint config knows only TypeScript's) */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const [reportPath, testDir] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const onDisk = readdirSync(testDir, { recursive: true })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join(testDir, name));
const ran = new Set(report.testResults.map((file) => relative(process.cwd(), file.name)));
const missing = onDisk.filter((file) => !ran.has(file));
const problems = [
  ...missing.map((file) => `${file}: did not run`),
  ...report.testResults.filter((file) => file.status !== 'passed').map((file) => `${relative(process.cwd(), file.name)}: ${file.status}`),
];
if (!report.success) problems.push('the run did not succeed');
if (problems.length) {
  console.error(`test report: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`test report: ${report.testResults.length} files, ${report.numPassedTests} tests passed, none failed`);
