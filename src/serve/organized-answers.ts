import type { Handbook } from '../api/open-handbook.js';
import { shortName } from '../graph/unit-name.js';
import { livePlacesById, livePlacesOf, type UnitResolver } from '../locate/live-place.js';
import { stageById } from '../organize/model.js';
import type { OverviewResponse, RegisterResponse, StageResponse } from './api-schemas.js';
import { accessSitesOf, liveSitesOf, withLiveFields } from './sites.js';

/**
 * The overview, a stage and the register, each listed unit where its code stands now, through the
 * one resolver given (a LiveUnits per answer, or per static render), which reads each file once
 * and parses only the files that changed since the build.
 */

export async function overviewAnswer(handbook: Handbook, live: UnitResolver): Promise<OverviewResponse> {
  const { organized, graph } = handbook;
  const { overview, stager } = organized;
  const stages = [...organized.stages].sort((a, b) => a.position - b.position);
  const entryPoints = await Promise.all(stages.map((stage) => liveSitesOf(graph, stage.entryPoints, live)));
  return {
    name: overview.title,
    description: overview.description,
    generation: handbook.generation.id,
    stager: stager.kind === 'offline' ? 'offline' : stager.model,
    stages: stages.map((stage, index) => ({
      id: stage.id,
      name: stage.name,
      position: stage.position,
      summary: stage.summary,
      unitCount: stage.members.filter((member) => member.primary).length,
      entryPoints: entryPoints[index]!,
    })),
    coupling: overview.couplingSlots.map((coupling) => ({ slot: shortName(coupling.slot), stages: coupling.stages })),
  };
}

export async function stageAnswer(handbook: Handbook, id: string, live: UnitResolver): Promise<StageResponse> {
  const { organized, graph } = handbook;
  const stage = stageById(organized, id);
  const members = stage.members.flatMap((member) => {
    const unit = graph.getUnit(member.unit);
    return unit ? [{ unit, primary: member.primary }] : [];
  });
  const [placed, entryPoints] = await Promise.all([livePlacesOf(members, live), liveSitesOf(graph, stage.entryPoints, live)]);
  return {
    id: stage.id,
    name: stage.name,
    position: stage.position,
    summary: stage.summary,
    members: placed.map(({ listed: { unit, primary }, live: place }) =>
      withLiveFields({ unit: unit.id, symbol: unit.symbol, kind: unit.kind, file: unit.file, line: unit.startLine, endLine: unit.endLine, primary }, unit, place),
    ),
    entryPoints,
    behaviors: stage.behaviors.map(({ id: behavior, name, summary, members: units, entryPoints: entered, files, writes, reads }) => ({ id: behavior, name, summary, members: units, entryPoints: entered, files, writes, reads })),
  };
}

/** The whole register, not only the state that couples stages: the explorer filters in the browser. */
export async function registerAnswer(handbook: Handbook, live: UnitResolver): Promise<RegisterResponse> {
  const { graph, register } = handbook;
  // Most accessors act on several slots, and a big repository's register lists tens of thousands of sites: each unit is resolved once.
  const placed = await livePlacesById(
    graph,
    register.flatMap((entry) => [...entry.writers, ...entry.readers].map((access) => access.unit)),
    live,
  );
  return {
    slots: register.map((entry) => ({
      slot: entry.slot,
      name: shortName(entry.slot),
      type: entry.type,
      stages: entry.stages,
      writers: accessSitesOf(entry.writers, placed),
      readers: accessSitesOf(entry.readers, placed),
    })),
  };
}
