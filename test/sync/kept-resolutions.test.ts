import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook } from '../../src/index.js';
import { changeFile, expectSameAsColdBuild, handbookContent } from '../helpers/handbook-snapshot.js';
import { scratchDirectory } from '../helpers/paths.js';

/**
 * A kept-open sync reuses a file's finished resolution when its uses were kept and what finishing
 * reads from other files is unchanged. These edits leave every file's surface alone (a comment
 * above a type, a write in a body) but change what another file's rows hold: the line of a field
 * it reads, or whether a variable it reads is state. Each sync must equal a cold build.
 */

interface Case {
  language: string;
  files: Record<string, string>;
  /** The file whose edits reach the other one. */
  owner: string;
  /** Moves the owner's declarations down without changing what it declares. */
  shift: (text: string) => string;
  /** Makes the variable the other file reads written in a body of the owner: state from then on (Go; a Rust static that is not mut cannot be written). */
  turnState?: { write: (text: string) => string; read: { kind: string; from: string; to: string } };
  /** The other file's field slot, whose line follows the owner. */
  fieldSlot: string;
}

const CASES: Case[] = [
  {
    language: 'Go',
    files: {
      'go.mod': 'module example.com/app\n\ngo 1.22\n',
      'app/config.go': 'package app\n\nvar counter int\n\ntype Config struct {\n\tName    string\n\tRetries int\n}\n\nfunc Bump() {\n\t_ = counter\n}\n',
      'app/label.go': 'package app\n\nfunc (c *Config) Label() string {\n\t_ = counter\n\treturn c.Name\n}\n',
    },
    owner: 'app/config.go',
    shift: (text) => text.replace('package app\n', 'package app\n\n// Settings read at start.\n// More about them.\n'),
    turnState: { write: (text) => text.replace('\t_ = counter\n}', '\tcounter++\n}'), read: { kind: 'reads', from: 'app/label.go#Config.Label', to: 'app/config.go#counter' } },
    fieldSlot: 'app/config.go#Config.Name',
  },
  {
    language: 'Rust',
    files: {
      'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': 'pub mod config;\npub mod label;\n',
      'src/config.rs': 'pub static mut COUNTER: u32 = 0;\n\npub struct Config {\n    pub name: String,\n    pub retries: u32,\n}\n',
      'src/label.rs': 'use crate::config::{Config, COUNTER};\n\nimpl Config {\n    pub fn label(&self) -> String {\n        let _ = unsafe { COUNTER };\n        self.name.clone()\n    }\n}\n',
    },
    owner: 'src/config.rs',
    shift: (text) => `// Settings read at start.\n// More about them.\n\n${text}`,
    fieldSlot: 'src/config.rs#Config.name',
  },
];

const scratch: string[] = [];
afterEach(() => {
  for (const directory of scratch.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Writes the files into a new repository, builds it and opens it kept open, as `watch` does. */
async function openRepository(files: Record<string, string>): Promise<{ repo: string; database: string; live: LiveHandbook }> {
  const directory = scratchDirectory();
  scratch.push(directory);
  const repo = path.join(directory, 'repo');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  }
  const database = path.join(directory, 'handbook.db');
  await buildHandbook(repo, { database });
  return { repo, database, live: await LiveHandbook.open(repo, { database }) };
}

function graphOf(repo: string, database: string): { edges: Array<{ kind: string; from: string; to: string }>; slots: Array<{ id: string; line: number }> } {
  return handbookContent(repo, database).graph as never;
}

describe('kept finished resolutions', () => {
  for (const testCase of CASES) {
    it(`${testCase.language}: another file's field line${testCase.turnState ? ' and a variable turned state reach' : ' reaches'} a file whose uses were kept`, async () => {
      const { repo, database, live } = await openRepository(testCase.files);
      try {
        await live.sync();
        const lineBefore = graphOf(repo, database).slots.find((slot) => slot.id === testCase.fieldSlot)?.line;
        expect(lineBefore, 'the field is a slot of the graph').toBeDefined();

        changeFile(repo, testCase.owner, testCase.shift);
        await live.sync();
        await expectSameAsColdBuild(repo, database, 'lines shifted above the type');
        expect(graphOf(repo, database).slots.find((slot) => slot.id === testCase.fieldSlot)?.line).toBe(lineBefore! + 3);

        const turnState = testCase.turnState;
        if (!turnState) return;
        const isStateRead = (edge: { kind: string; from: string; to: string }): boolean => edge.kind === turnState.read.kind && edge.from === turnState.read.from && edge.to === turnState.read.to;
        expect(graphOf(repo, database).edges.some(isStateRead)).toBe(false);
        changeFile(repo, testCase.owner, turnState.write);
        await live.sync();
        await expectSameAsColdBuild(repo, database, 'the variable written in a body');
        expect(graphOf(repo, database).edges.some(isStateRead)).toBe(true);
      } finally {
        live.close();
      }
    });
  }

  it('Go: a body edit that changes what a local holds resolves against the new local, not an answer the kept program gave', async () => {
    const files: Record<string, string> = {
      'go.mod': 'module example.com/app\n\ngo 1.22\n',
      'app/peers.go': 'package app\n\ntype Client struct{}\n\nfunc (c *Client) Send() {}\n\ntype Server struct{}\n\nfunc (s *Server) Send() {}\n\nfunc NewClient() *Client { return &Client{} }\n\nfunc NewServer() *Server { return &Server{} }\n',
      'app/run.go': 'package app\n\nfunc Run() {\n\tpeer := NewClient()\n\tpeer.Send()\n}\n',
    };
    const { repo, database, live } = await openRepository(files);
    const calls = (): string[] => graphOf(repo, database).edges.filter((edge) => edge.kind === 'calls' && edge.from === 'app/run.go#Run').map((edge) => edge.to).sort();
    try {
      await live.sync();
      expect(calls()).toEqual(['app/peers.go#Client.Send', 'app/peers.go#NewClient']);
      changeFile(repo, 'app/run.go', (text) => text.replace('peer := NewClient()', 'peer := NewServer()'));
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'the local holds another type');
      expect(calls()).toEqual(['app/peers.go#NewServer', 'app/peers.go#Server.Send']);
    } finally {
      live.close();
    }
  });

  it('Rust: a body edit that changes what a local holds, and lines shifted above an impl, reach a patched program', async () => {
    const files: Record<string, string> = {
      'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': 'pub mod peers;\npub mod run;\n',
      'src/peers.rs': 'pub trait Peer {\n    fn send(&self);\n}\n\npub struct Client;\n\nimpl Client {\n    pub fn new() -> Client {\n        Client\n    }\n    pub fn send(&self) {}\n}\n\npub struct Server;\n\nimpl Server {\n    pub fn new() -> Server {\n        Server\n    }\n    pub fn send(&self) {}\n}\n\nimpl Peer for Server {\n    fn send(&self) {}\n}\n',
      'src/run.rs': 'use crate::peers::{Client, Server};\n\npub fn run() {\n    let peer = Client::new();\n    peer.send();\n}\n',
    };
    const { repo, database, live } = await openRepository(files);
    const graph = (): { edges: Array<{ kind: string; from: string; to: string; lines: number[] }> } => handbookContent(repo, database).graph as never;
    const calls = (): string[] => graph().edges.filter((edge) => edge.kind === 'calls' && edge.from === 'src/run.rs#run').map((edge) => edge.to).sort();
    const implementsLine = (): number[] | undefined => graph().edges.find((edge) => edge.kind === 'implements' && edge.from === 'src/peers.rs#Server')?.lines;
    try {
      await live.sync();
      expect(calls()).toEqual(['src/peers.rs#Client.new', 'src/peers.rs#Client.send']);
      changeFile(repo, 'src/run.rs', (text) => text.replace('let peer = Client::new();', 'let peer = Server::new();'));
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'the local holds another type');
      expect(calls()).toEqual(['src/peers.rs#Server.new', 'src/peers.rs#Server.send']);

      const before = implementsLine();
      expect(before).toBeDefined();
      changeFile(repo, 'src/peers.rs', (text) => `// Peers the runner talks to.\n// Two kinds.\n\n${text}`);
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'lines shifted above the impl');
      expect(implementsLine()).toEqual(before!.map((line) => line + 3));
    } finally {
      live.close();
    }
  });
});
