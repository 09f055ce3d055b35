import type { Handbook } from '../api/open-handbook.js';
import { shortName } from '../graph/unit-name.js';
import { stageById } from '../organize/model.js';
import type { OverviewResponse, RegisterResponse, StageResponse } from './api-schemas.js';
import { sitesAt, sitesOf } from './sites.js';

export function overviewAnswer(handbook: Handbook): OverviewResponse {
  const { organized, graph } = handbook;
  const { overview, stager } = organized;
  return {
    name: overview.title,
    description: overview.description,
    generation: handbook.generation.id,
    stager: stager.kind === 'offline' ? 'offline' : stager.model,
    stages: [...organized.stages]
      .sort((a, b) => a.position - b.position)
      .map((stage) => ({
        id: stage.id,
        name: stage.name,
        position: stage.position,
        summary: stage.summary,
        unitCount: stage.members.filter((member) => member.primary).length,
        entryPoints: sitesOf(graph, stage.entryPoints),
      })),
    coupling: overview.couplingSlots.map((coupling) => ({ slot: shortName(coupling.slot), stages: coupling.stages })),
  };
}

export function stageAnswer(handbook: Handbook, id: string): StageResponse {
  const { organized, graph } = handbook;
  const stage = stageById(organized, id);
  return {
    id: stage.id,
    name: stage.name,
    position: stage.position,
    summary: stage.summary,
    members: stage.members.flatMap((member) => {
      const unit = graph.getUnit(member.unit);
      return unit ? [{ unit: unit.id, symbol: unit.symbol, kind: unit.kind, file: unit.file, line: unit.startLine, endLine: unit.endLine, primary: member.primary }] : [];
    }),
    entryPoints: sitesOf(graph, stage.entryPoints),
  };
}

/** The whole register, not only the state that couples stages: the explorer filters in the browser. */
export function registerAnswer(handbook: Handbook): RegisterResponse {
  return {
    slots: handbook.register.map((entry) => ({
      slot: entry.slot,
      name: shortName(entry.slot),
      type: entry.type,
      stages: entry.stages,
      writers: sitesAt(handbook.graph, entry.writers),
      readers: sitesAt(handbook.graph, entry.readers),
    })),
  };
}
