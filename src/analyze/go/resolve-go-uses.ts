import type { VariableAccess } from '../syntax/file-resolution.js';
import type { Slot, UnresolvedCall, UnresolvedReason } from '../../graph/model.js';
import { EdgeSink } from '../syntax/edge-sink.js';
import type { ExprPath, Shape, UseFact } from './go-facts.js';
import type { GoProgram } from './go-program.js';
import type { GoLanding } from './go-values.js';

/**
 * How many methods a call on a value of unknown type may be tied to by the method's name alone.
 * A name more types declare says too little about which one runs: the call stays unresolved.
 */
export const NAME_CANDIDATE_LIMIT = 3;

/** What one file's uses resolve to, before package-level variables are told state or constant. */
export interface FileUses {
  sink: EdgeSink;
  slots: Map<string, Slot>;
  variables: VariableAccess[];
  unresolved: UnresolvedCall[];
  resolvedCallLines: number[];
}

type Touch = 'read' | 'write' | 'update' | 'mutate';

/** Every method of the repository by name, with its shape, for calls tied by name alone; and every field name. */
export interface DeclaredNames {
  methods: Map<string, Array<{ id: string; shape: Shape }>>;
  fields: Set<string>;
}

export function declaredNamesOf(program: GoProgram): DeclaredNames {
  const methods: DeclaredNames['methods'] = new Map();
  const fields = new Set<string>();
  for (const entry of program.types.values()) for (const name in entry.fact.fields) fields.add(name);
  const methodUnits = [...program.units.values()].filter((unit) => unit.kind === 'method').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const unit of methodUnits) {
    const shape = program.functionFact(unit.id);
    if (!shape) continue;
    const name = unit.symbol.slice(unit.symbol.lastIndexOf('.') + 1).replace(/~\d+$/, '');
    const list = methods.get(name);
    if (list) list.push({ id: unit.id, shape });
    else methods.set(name, [{ id: unit.id, shape }]);
  }
  return { methods, fields };
}

/**
 * Resolves the uses of one file: each walks its path step by step, and every step after the
 * path's last call that names a unit or a slot is read on the way (`s.tools.Get()` reads tools);
 * the last step gets the use's access (a call, a read, a write, a composite literal).
 *
 * A call of a func or method is a `calls` edge (`scope`); through an interface, one to the method
 * of each type implementing it (`name`, `dispatch`); on a value whose type nothing tells, one to
 * each method of the name and arity, when at most three types have one (`name`). A conversion
 * (`Celsius(x)`) is no call: it references the type. A predeclared func (`len`) is no call site.
 */
export function resolveGoUses(program: GoProgram, file: string, uses: readonly UseFact[], names: DeclaredNames): FileUses {
  const result: FileUses = { sink: new EdgeSink(), slots: new Map(), variables: [], unresolved: [], resolvedCallLines: [] };
  const { sink } = result;

  const touch = (landing: GoLanding | undefined, mode: Touch, from: string, line: number): void => {
    if (!landing) return;
    if (landing.slot !== undefined) {
      addSlot(landing.slot);
      if (mode !== 'write') sink.add('reads', from, landing.slot, line);
      if (mode !== 'read') sink.add('writes', from, landing.slot, line);
      return;
    }
    const unit = landing.unit === undefined ? undefined : program.units.get(landing.unit);
    if (!unit) return;
    if (unit.kind === 'variable') {
      if (unit.id !== from) result.variables.push({ from, id: unit.id, line, read: mode !== 'write', write: mode !== 'read' });
    } else if (mode === 'read') sink.add('references', from, unit.id, line);
  };

  const addSlot = (id: string): void => {
    if (!result.slots.has(id)) result.slots.set(id, fieldSlot(program, id));
  };

  const unresolved = (use: UseFact, from: string, reason: UnresolvedReason): void => {
    result.unresolved.push({ from, text: use.text ?? '', line: use.line, reason });
  };

  const called = (use: UseFact): void => {
    result.resolvedCallLines.push(use.line);
  };

  const resolveCall = (last: GoLanding, use: UseFact, from: string): void => {
    const value = last.value;
    if (value.kind === 'function') {
      // A func read from a variable or field is read first, then run.
      if (last.unit === undefined || program.units.get(last.unit)?.kind === 'variable') touch(last, 'read', from, use.line);
      sink.add('calls', from, value.id, use.line, { via: 'direct' });
      return called(use);
    }
    if (value.kind === 'type') {
      // `T(x)` converts: no code of the repository runs.
      sink.add('references', from, value.id, use.line);
      return;
    }
    if (last.unit !== undefined || last.slot !== undefined) touch(last, 'read', from, use.line);
    switch (value.kind) {
      case 'interface-method': {
        const targets = program.members.implementersOf(value.interfaceId).flatMap((typeId) => {
          const member = program.members.memberOf(typeId, value.name);
          return member?.kind === 'method' ? [member.id] : [];
        });
        if (targets.length === 0) return unresolved(use, from, 'dynamic');
        for (const target of targets) sink.add('calls', from, target, use.line, { resolution: 'name', via: 'dispatch' });
        return called(use);
      }
      case 'builtin':
        return;
      case 'external':
        return unresolved(use, from, 'external');
      case 'unknown':
        return unresolved(use, from, 'unknown');
      case 'dynamic': {
        if (last.missing === undefined) return unresolved(use, from, 'dynamic');
        const named = names.methods.get(last.missing);
        // A name no type of the repository declares cannot reach the repository's code.
        if (!named) return unresolved(use, from, names.fields.has(last.missing) ? 'dynamic' : 'external');
        const candidates = named.filter(({ shape }) => fits(shape, use));
        if (candidates.length === 0 || candidates.length > NAME_CANDIDATE_LIMIT) return unresolved(use, from, 'dynamic');
        for (const candidate of candidates) sink.add('calls', from, candidate.id, use.line, { resolution: 'name' });
        return called(use);
      }
      default:
        // A func-typed field, parameter or variable, an instance of a func type: whose code runs, no name tells.
        return unresolved(use, from, 'dynamic');
    }
  };

  const unitIds = new Map<string, string>([['', file]]);
  // Extraction hands identical paths of a file as one object: each is walked once.
  const walked = new Map<ExprPath, GoLanding[]>();
  const walk = (path: ExprPath): GoLanding[] => {
    let landings = walked.get(path);
    if (!landings) {
      const steps: GoLanding[] = [];
      program.evalPath(file, path, (landing) => steps.push(landing));
      walked.set(path, (landings = steps));
    }
    return landings;
  };
  for (const use of uses) {
    let from = unitIds.get(use.from);
    if (from === undefined) unitIds.set(use.from, (from = `${file}#${use.from}`));
    const landings = walk(use.path);
    // Steps up to a call were the call's own use; those after it are read on the way to the last.
    const lastCall = use.path.steps.map((step) => step.kind).lastIndexOf('call');
    for (let index = lastCall + 1; index < landings.length - 1; index += 1) touch(landings[index], 'read', from, use.line);
    const last = landings[landings.length - 1]!;
    switch (use.access) {
      case 'call':
        resolveCall(last, use, from);
        break;
      case 'instantiate':
        if (last.value.kind === 'type' && program.units.get(last.value.id)?.kind !== 'interface') sink.add('instantiates', from, last.value.id, use.line);
        break;
      default:
        touch(last, use.access, from, use.line);
    }
  }
  return result;
}

/** Whether a call's argument count fits a method's parameters (a spread argument fits any variadic one). */
function fits(shape: Shape, use: UseFact): boolean {
  if (use.arguments === undefined) return true;
  if (use.spread) return shape.variadic;
  return shape.variadic ? use.arguments >= shape.parameters - 1 : use.arguments === shape.parameters;
}

/** The slot of a struct field (`file#Type.name`), as its type declares it now. */
export function fieldSlot(program: GoProgram, id: string): Slot {
  const dot = id.lastIndexOf('.');
  const owner = id.slice(0, dot);
  const name = id.slice(dot + 1);
  const entry = program.types.get(owner);
  const field = entry?.fact.fields[name];
  return { id, kind: 'field', file: entry?.file ?? owner.slice(0, owner.lastIndexOf('#')), owner, name, line: field?.line ?? 1, type: field?.typeText ?? '' };
}
