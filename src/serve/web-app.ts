import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from './api-error.js';

/**
 * The bundled browser app, `<package root>/dist/web`. This module runs from dist/serve when
 * built and from src/serve under vitest; both sit two folders below the package root.
 */
export const WEB_APP_FOLDER = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface AppFile {
  bytes: Buffer;
  contentType: string;
}

/** Whether the app folder holds a built app; a static site cannot be written without one. */
export function hasWebApp(folder: string): boolean {
  return existsSync(path.join(folder, 'index.html'));
}

export function notBuiltMessage(folder: string): string {
  return `the web app is not built: ${path.join(folder, 'index.html')} is missing`;
}

/**
 * The app file a URL path names, `/` being index.html. The decoded path must stay inside the
 * folder by name and, after following links, by realpath; anything else is simply not there.
 */
export function appFile(folder: string, pathname: string): AppFile {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw new ApiError(400, `"${pathname}" is not a valid URL path`);
  }
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  if (relative === 'index.html' && !hasWebApp(folder)) throw new ApiError(500, `${notBuiltMessage(folder)} (run npm run build in harness-handbook)`);
  const missing = new ApiError(404, `no file ${pathname}`);
  if (relative.includes('\0')) throw missing;
  const absolute = path.resolve(folder, relative);
  if (!inside(folder, absolute)) throw missing;
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw missing;
  }
  if (!inside(realpathSync(folder), real) || !statSync(real).isFile()) throw missing;
  return { bytes: readFileSync(real), contentType: CONTENT_TYPES[path.extname(real).toLowerCase()] ?? 'application/octet-stream' };
}

function inside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
