import { describe, expect, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * A method renamed in one of several classes that implement an interface declaring it, as a user
 * renamed pi-mono's `Agent.setSystemPrompt`. The class's member names change, so the class's own
 * name does, and a sync follows what holds one (the field `agent: Agent`) as it follows an alias
 * that changed: those holders' names, and the declarations whose annotations spell them
 * (`"user" | "agent"` can be a key that selects the field), change too. A key a type literal
 * declares (`{ agent: string }`) refers to no declaration elsewhere: what it annotates is unchanged.
 */
const RUNNER = 'export interface Runner {\n  setPrompt(text: string): void;\n}\n';
const AGENT = "import type { Runner } from './runner';\nexport class Agent implements Runner {\n  prompt = '';\n  setPrompt(text: string): void {\n    this.prompt = text;\n  }\n  run(): string {\n    return this.prompt;\n  }\n}\n";
const TOOL = "import type { Runner } from './runner';\nexport class Tool implements Runner {\n  setPrompt(text: string): void {\n    void text;\n  }\n}\n";
const DRIVE = "import type { Runner } from './runner';\nexport function drive(runner: Runner): void {\n  runner.setPrompt('go');\n}\n";
const START = "import { Agent } from './agent';\nimport { drive } from './drive';\nexport function start(): string {\n  const agent = new Agent();\n  agent.setPrompt('hello');\n  drive(agent);\n  return agent.run();\n}\n";
const PANEL = "import type { Agent } from './agent';\nexport class Panel {\n  agent: Agent | undefined;\n  show(): string {\n    return this.agent?.run() ?? '';\n  }\n}\n";
// A literal type the field's name spells, selecting the field by key elsewhere.
const ROLES = "import type { Panel } from './panel';\nexport type Role = 'user' | 'agent';\nexport function held(panel: Panel, role: Exclude<Role, 'user'>): Panel[typeof role] {\n  return panel[role];\n}\n";
// A type literal declaring a key and a function type a parameter of the field's name.
const EVENTS = "export type Event = { agent: string; kind: 'start' | 'stop' };\nexport type OnEvent = (agent: string) => void;\nexport function kindOf(event: Event): string {\n  return event.kind;\n}\n";
const LOG = "import type { Event, OnEvent } from './events';\nimport { kindOf } from './events';\nexport function log(event: Event, listener: OnEvent): string {\n  listener(event.kind);\n  return kindOf(event);\n}\n";

const files = {
  'src/runner.ts': RUNNER,
  'src/agent.ts': AGENT,
  'src/tool.ts': TOOL,
  'src/drive.ts': DRIVE,
  'src/start.ts': START,
  'src/panel.ts': PANEL,
  'src/roles.ts': ROLES,
  'src/events.ts': EVENTS,
  'src/log.ts': LOG,
};

const renameDeclaration = (text: string): string => text.replace('setPrompt(text: string): void {', 'setPromptText(text: string): void {');

// Resolved again: agent.ts, start.ts (names Agent and the method), tool.ts, drive.ts, runner.ts (the method's name), panel.ts (Agent),
// roles.ts and events.ts (the field's name `agent`). Not log.ts: it spells Event and OnEvent, whose annotations only declare an `agent`.
const cases: Array<{ name: string; edit: (repo: string) => void; resolved: number }> = [
  { name: 'the declaration alone is renamed', edit: (repo) => change(repo, 'src/agent.ts', renameDeclaration), resolved: 8 },
  {
    name: 'the declaration and its direct call are renamed',
    edit: (repo) => {
      change(repo, 'src/agent.ts', renameDeclaration);
      change(repo, 'src/start.ts', (text) => text.replace("agent.setPrompt('hello')", "agent.setPromptText('hello')"));
    },
    resolved: 8,
  },
];

describe('a method renamed in one of the classes implementing an interface that declares it', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit, resolved } of cases) {
      it(`${name}: resolves ${resolved} files, and sync equals a cold build, keepOpen=${keepOpen}`, async () => {
        const summary = await expectEditSyncedAsColdBuild({ files, edit, keepOpen, step: name });
        expect(summary.resolvedFiles).toBe(resolved);
      });
    }
  }
});

/**
 * Why the holders are followed at all, though every use of a member spells its name: what holds
 * the class can meet a structural type that tells the versions apart, here an overload that takes
 * anything with the old method. `pick(agent).speak()` spells no name the rename changed, only the
 * field's, and calls another class's `speak` after it.
 */
const LOUD = "export class Loud {\n  speak(): string {\n    return 'LOUD';\n  }\n}\n";
const QUIET = "export class Quiet {\n  speak(): string {\n    return 'quiet';\n  }\n}\n";
const PICK = "import { Loud } from './loud';\nimport { Quiet } from './quiet';\n" +
  'export function pick(source: { setPrompt(text: string): void }): Loud;\nexport function pick(source: unknown): Quiet;\n' +
  'export function pick(source: unknown): Loud | Quiet {\n  return source ? new Loud() : new Quiet();\n}\n';
const SHOUT = "import type { Panel } from './panel';\nimport { pick } from './pick';\nexport function shout(panel: Panel): string {\n  const agent = panel.agent;\n  return agent ? pick(agent).speak() : '';\n}\n";

describe('a method renamed in a class that a field holds, the field met by an overload on the method', () => {
  for (const keepOpen of [true, false]) {
    it(`sync equals a cold build, keepOpen=${keepOpen}`, () =>
      expectEditSyncedAsColdBuild({
        files: { ...files, 'src/loud.ts': LOUD, 'src/quiet.ts': QUIET, 'src/pick.ts': PICK, 'src/shout.ts': SHOUT },
        edit: (repo) => change(repo, 'src/agent.ts', renameDeclaration),
        keepOpen,
        step: 'a held class loses the method an overload takes',
      }));
  }
});
