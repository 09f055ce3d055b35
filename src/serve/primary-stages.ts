import type { Handbook } from '../api/open-handbook.js';

/** Each placed unit's primary stage: the one it is drawn in and listed under. */
export function primaryStages(handbook: Handbook): Map<string, string> {
  return new Map(handbook.organized.stages.flatMap((stage) => stage.members.filter((member) => member.primary).map((member) => [member.unit, stage.id] as const)));
}

/** Each placed unit's behaviour within its primary stage: what the graph clusters it by. */
export function primaryBehaviors(handbook: Handbook): Map<string, string> {
  return new Map(handbook.organized.stages.flatMap((stage) => stage.behaviors.flatMap((behavior) => behavior.members.map((unit) => [unit, behavior.id] as const))));
}
