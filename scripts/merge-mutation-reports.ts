/**
 * Merges Stryker incremental reports into one (README "Mutation testing"): `npm run
 * mutation:merge -- <out.json> <in.json>...`. Stryker 9 writes to its incremental file only the
 * files of the run that wrote it, so runs over parts of a scope (`--mutate <glob> --incrementalFile
 * <part>.json`) do not add up by themselves; merged into the scope's incremental file, they let the
 * next full run retest only what changed. Test ids are numbers local to each report: tests are
 * matched by file, name and location and numbered anew, and each mutant's `coveredBy` and
 * `killedBy` follow. A file in several inputs keeps its last one. Prints the merged counts.
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface TestDefinition { readonly id: string; readonly name: string; readonly location?: unknown }
interface MutantResult { readonly status: string; readonly coveredBy?: string[]; readonly killedBy?: string[] }
interface Report {
  files: Record<string, { mutants: MutantResult[] }>;
  testFiles?: Record<string, { tests: TestDefinition[] }>;
  [other: string]: unknown;
}

const [out, ...inputs] = process.argv.slice(2);
if (!out || inputs.length === 0) {
  console.error('usage: merge-mutation-reports <out.json> <in.json>...');
  process.exit(2);
}
const merged: Report = { files: {}, testFiles: {} };
const newId = new Map<string, string>();
for (const input of inputs) {
  const report = JSON.parse(readFileSync(input, 'utf8')) as Report;
  const { files, testFiles = {}, ...rest } = report;
  Object.assign(merged, rest);
  const local = new Map<string, string>();
  for (const [file, testFile] of Object.entries(testFiles)) {
    const target = (merged.testFiles![file] ??= { ...testFile, tests: [] });
    for (const test of testFile.tests) {
      const key = JSON.stringify([file, test.name, test.location ?? null]);
      if (!newId.has(key)) {
        newId.set(key, String(newId.size));
        target.tests.push({ ...test, id: newId.get(key)! });
      }
      local.set(test.id, newId.get(key)!);
    }
  }
  const remap = (ids?: string[]) => ids?.map((id) => local.get(id) ?? id);
  for (const [file, result] of Object.entries(files)) {
    merged.files[file] = { ...result, mutants: result.mutants.map((m) => ({ ...m, coveredBy: remap(m.coveredBy), killedBy: remap(m.killedBy) })) };
  }
}
writeFileSync(out, JSON.stringify(merged, null, 2));
const mutants = Object.values(merged.files).flatMap((file) => file.mutants);
const count = (status: string) => mutants.filter((m) => m.status === status).length;
console.log(`${Object.keys(merged.files).length} files, ${mutants.length} mutants: ${count('Killed')} killed, ${count('Timeout')} timed out, `
  + `${count('Survived')} survived, ${count('NoCoverage')} not reached, ${count('Ignored')} ignored (static)`);
