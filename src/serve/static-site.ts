import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openHandbook } from '../api/open-handbook.js';
import { HandbookError } from '../errors.js';
import { pagesWrittenBefore } from '../render/page-manifest.js';
import { assertFolderPath, someFilesShown, someFilesUnder } from '../render/write-pages.js';
import { PathRefused, Workspace } from '../harness/workspace.js';
import { makeFolder } from '../text/make-folder.js';
import type { StaticMarker } from './api-schemas.js';
import { graphAnswer } from './graph-answer.js';
import { LiveUnits } from './live-units.js';
import { overviewAnswer, registerAnswer, stageAnswer } from './organized-answers.js';
import { primaryBehaviors, primaryStages } from './primary-stages.js';
import { unitAnswer } from './unit-answer.js';
import { unitFileName } from './unit-file-name.js';
import { hasWebApp, notBuiltMessage, WEB_APP_FOLDER } from './web-app.js';

export interface StaticSiteOptions {
  /** Database file; `<repo>/.handbook/handbook.db` by default. */
  database?: string;
  /** The built browser app; `<package>/dist/web` by default. */
  app?: string;
}

export interface StaticSite {
  /** The folder written, absolute. */
  directory: string;
  /** Every file written, relative to it, with forward slashes. */
  files: string[];
  /** Source files left out: gone since the build, or refused by the gate. */
  skippedSources: string[];
}

/**
 * Refuses a folder the site may not be written into, before anything is written: one holding a
 * data/ or an app file it did not write, or anyone's files (a Markdown render's folder excepted).
 * `render --out X --html Y` checks Y with it before writing the pages, so a refused site leaves no pages behind.
 */
export function assertStaticSiteFolder(out: string, app: string = WEB_APP_FOLDER): string {
  if (!hasWebApp(app)) throw new HandbookError('INVALID_INPUT', notBuiltMessage(app), 'run npm run build in harness-handbook, or render Markdown without --html');
  const directory = path.resolve(out);
  assertFolderPath(directory, 'pass --html a folder for the site: a new or empty one, or one it was rendered into before');
  const data = path.join(directory, 'data');
  const ours = existsSync(path.join(data, 'static.json'));
  // A folder this command did not write is never overwritten: not its data, not an index.html of someone's site.
  const taken = [data, ...readdirSync(app).map((name) => path.join(directory, name))].filter((file) => existsSync(file));
  if (!ours && taken.length > 0) throw new HandbookError('INVALID_INPUT', `${taken[0]} exists and was not written by handbook render --html`, 'pick another folder for the site');
  // Nor is a folder of someone else's files written into, though no name collides: `--html .` or `--html src`
  // would mix the app and its data into the repository, where the next build reads app.js as source.
  // A Markdown render's folder is the handbook's own, so pages and site may share one (`--out X --html X`).
  if (!ours && pagesWrittenBefore(directory) === undefined) {
    const others = someFilesUnder(directory, 4);
    if (others.length > 0) throw new HandbookError('INVALID_INPUT', `${directory} holds files the handbook did not write (${someFilesShown(others)})`, 'pick an empty folder for the site, or remove them');
  }
  return directory;
}

/**
 * `handbook render --html DIR`: the viewer as files, readable from any static host. The app
 * comes from the built bundle and finds, instead of /api, the same answers under data/:
 * overview.json, register.json, graph.json, stages/<id>.json, units/<unitFileName(id)>.json,
 * sources/<path>.json, and static.json, which tells it there is no search. data/ is replaced as
 * a whole, so nothing of an earlier render outlives its unit; a data/ folder this did not write
 * is left alone and the render refused.
 */
export async function writeStaticSite(repo: string, out: string, options: StaticSiteOptions = {}): Promise<StaticSite> {
  const app = options.app ?? WEB_APP_FOLDER;
  if (!hasWebApp(app)) throw new HandbookError('INVALID_INPUT', notBuiltMessage(app), 'run npm run build in harness-handbook, or render Markdown without --html');
  const handbook = openHandbook(repo, { ...(options.database ? { database: options.database } : {}), withUnresolved: false });
  const directory = assertStaticSiteFolder(out, app);
  const data = path.join(directory, 'data');
  if (existsSync(data)) rmSync(data, { recursive: true });
  makeFolder(directory);
  cpSync(app, directory, { recursive: true });

  const files: string[] = [];
  const write = (relative: string, value: unknown): void => {
    const target = path.join(data, ...relative.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, JSON.stringify(value));
    files.push(`data/${relative}`);
  };
  // Written first: it marks data/ as this render's, so a render cut short is still replaced by the next.
  // It holds no time of writing: two renders of one handbook are the same bytes.
  write('static.json', { static: true } satisfies StaticMarker);

  const stageOf = primaryStages(handbook);
  // One resolver for the whole site: its lists place units as its unit pages do, each file read once.
  const live = new LiveUnits(handbook);
  write('overview.json', await overviewAnswer(handbook, live));
  write('register.json', await registerAnswer(handbook, live));
  write('graph.json', graphAnswer(handbook, stageOf, primaryBehaviors(handbook)));
  for (const stage of handbook.organized.stages) write(`stages/${stage.id}.json`, await stageAnswer(handbook, stage.id, live));
  // A unit's page shows the file its code stands in now, which for a moved unit may be one the build never read.
  const movedInto = new Set<string>();
  for (const unit of handbook.graph.units) {
    const answer = await unitAnswer(handbook, unit.id, live, stageOf);
    if (answer.liveFile !== unit.file) movedInto.add(answer.liveFile);
    write(`units/${unitFileName(unit.id)}.json`, answer);
  }

  const workspace = new Workspace(handbook.root);
  const skippedSources: string[] = [];
  const shown = new Set(handbook.graph.toData().files.filter(({ path: file }) => handbook.graph.unitsOfFile(file).length > 0).map(({ path: file }) => file));
  for (const file of new Set([...shown, ...movedInto])) {
    const read = readSource(workspace, file);
    if (read) write(`sources/${read.file}.json`, read);
    else skippedSources.push(file);
  }
  return { directory, files: [...listAppFiles(app), ...files], skippedSources };
}

function listAppFiles(app: string): string[] {
  return readdirSync(app, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(app, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

function readSource(workspace: Workspace, file: string): { file: string; text: string } | undefined {
  try {
    const read = workspace.readText(file);
    return read.status === 'text' ? { file: read.path.relative, text: read.text } : undefined;
  } catch (error) {
    if (error instanceof PathRefused) return undefined;
    throw error;
  }
}
