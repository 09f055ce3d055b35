import type { Handbook } from '../api/open-handbook.js';
import type { UnitResponse } from './api-schemas.js';
import { ApiError } from './api-error.js';
import type { LiveUnits } from './live-units.js';
import { siteOf, sitesAt } from './sites.js';

/** One unit with where it stands on disk now, its stage, and the units it calls and is called by. */
export async function unitAnswer(handbook: Handbook, id: string, live: LiveUnits, stageOf: ReadonlyMap<string, string>): Promise<UnitResponse> {
  const { graph } = handbook;
  const unit = graph.getUnit(id);
  if (!unit) throw new ApiError(404, `no unit "${id}"`);
  const resolved = await live.resolve(unit);
  // A moved unit's live lines are lines of the file it moved to: the page shows that file, or it would light lines the code left.
  const at = resolved.movedTo ?? { file: unit.file, symbol: unit.symbol };
  return {
    unit: {
      id: unit.id,
      symbol: unit.symbol,
      kind: unit.kind,
      file: unit.file,
      line: unit.startLine,
      endLine: unit.endLine,
      ...(unit.doc ? { doc: unit.doc } : {}),
      ...(unit.signature ? { signature: unit.signature } : {}),
      stage: stageOf.get(unit.id) ?? null,
    },
    status: resolved.status,
    ...(resolved.reason ? { reason: resolved.reason } : {}),
    liveFile: at.file,
    liveSymbol: at.symbol,
    liveLine: resolved.line,
    liveEndLine: resolved.endLine,
    ...(resolved.status === 'frozen' ? {} : { liveHash: resolved.hash }),
    // A caller links to its call, which is where the reader goes next; a callee to its own first line.
    callers: sitesAt(graph, graph.callers(unit.id).map((caller) => ({ unit: caller.unit.id, lines: caller.lines }))),
    callees: graph.callees(unit.id).flatMap((callee) => siteOf(graph, callee.unit.id) ?? []),
  };
}
