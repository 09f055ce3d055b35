import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { Overview, RegisterEntry, Stage, Stager } from './model.js';
import { firstSentence } from '../text/first-sentence.js';

export interface ProjectDescription {
  title: string;
  description: string;
}

const manifestSchema = z.object({ name: z.string().optional(), description: z.string().optional() }).passthrough();

/** What the harness says it is: package.json first, else the README's first paragraph, else the folder name. */
export function describeProject(root: string): ProjectDescription {
  let title = path.basename(root);
  let description = '';
  const manifestFile = path.join(root, 'package.json');
  if (existsSync(manifestFile)) {
    try {
      const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestFile, 'utf8')));
      if (manifest.name) title = manifest.name;
      if (manifest.description) description = manifest.description;
    } catch {
      // A broken package.json says nothing about the harness; the README may.
    }
  }
  if (!description) description = readmeParagraph(root, title);
  return { title, description };
}

function readmeParagraph(root: string, title: string): string {
  const file = ['README.md', 'readme.md', 'Readme.md'].map((name) => path.join(root, name)).find((candidate) => existsSync(candidate));
  if (!file) return '';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // An unreadable README leaves the overview without its paragraph; it is not a reason to fail a build.
    return '';
  }
  return describingParagraph(text, title);
}

/**
 * The README paragraph that says what the project is: the first paragraph of prose under the
 * heading that names the project, else the first paragraph of prose anywhere. A README may open
 * with a banner (an announcement, badges in HTML) before its own title; comment markers are
 * dropped, since one left open in the overview's Markdown would hide the rest of the page.
 */
export function describingParagraph(text: string, title: string): string {
  const wordsOf = (value: string) => value.toLowerCase().replace(/^@[^/]+\//, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');
  const named = wordsOf(title);
  let heading = '';
  const prose: Array<{ heading: string; text: string }> = [];
  for (const paragraph of text.replace(/<!--|-->/g, '\n\n').split(/\n\s*\n/)) {
    const trimmed = paragraph.trim();
    const headingLine = /^#{1,6}\s+(.*)$/m.exec(trimmed);
    if (headingLine && trimmed.startsWith('#')) heading = wordsOf(headingLine[1]!);
    if (trimmed.length > 40 && !/^(#|!\[|\[!|<|```|\||-|\*|>)/.test(trimmed)) prose.push({ heading, text: trimmed });
  }
  const chosen = (named && prose.find((candidate) => candidate.heading === named)) || prose[0];
  return chosen ? chosen.text.replace(/\s+/g, ' ').replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').trim().slice(0, 600) : '';
}


export function buildOverview(input: {
  graph: ProgramGraph;
  stages: Stage[];
  register: RegisterEntry[];
  entryPoints: string[];
  stager: Stager;
  project: ProjectDescription;
  unassigned: number;
}): Overview {
  const { graph, stages, register } = input;
  // Counted in plain loops: a sync builds the overview every time, over every member of every stage.
  const assigned = new Set<string>();
  for (const stage of stages) for (const member of stage.members) assigned.add(member.unit);
  let codeUnits = 0;
  for (const unit of graph.units) if (unit.kind !== 'file') codeUnits += 1;
  // State a class or module holds comes before the properties of value types: every object literal
  // built for a type writes its properties, so a message's shape spans as many stages as build messages.
  // Sort keys taken once per entry: a sync builds the overview every time, and the comparator runs n log n times.
  const coupling = register
    .filter((entry) => entry.stages.length >= 2)
    .map((entry) => ({ entry, held: entry.kind === 'property' ? 1 : 0, accesses: entry.writers.length + entry.readers.length }))
    .sort((a, b) => a.held - b.held || b.entry.stages.length - a.entry.stages.length || b.accesses - a.accesses || (a.entry.slot < b.entry.slot ? -1 : 1))
    .slice(0, 12)
    .map(({ entry }) => ({ slot: entry.slot, stages: entry.stages, writers: entry.writers.length, readers: entry.readers.length }));
  return {
    title: input.project.title,
    description: input.project.description,
    stager: input.stager,
    stages: stages.map((stage) => ({
      id: stage.id,
      name: stage.name,
      line: firstSentence(stage.description),
      members: stage.members.reduce((count, member) => count + (member.primary ? 1 : 0), 0),
      behaviors: stage.behaviors.length,
    })),
    entryPoints: input.entryPoints.slice(0, 15),
    couplingSlots: coupling,
    counts: {
      files: graph.toData().files.length,
      units: codeUnits,
      assigned: assigned.size,
      unassigned: input.unassigned,
      slots: graph.slots.length,
      registerSlots: register.length,
    },
  };
}
