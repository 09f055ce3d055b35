import type { Api } from './api.js';
import type { AskLocation, Overview } from './types.js';

/** What every view may use: the API, the overview (for stage names) and the last search's sites. */
export interface ViewContext {
  api: Api;
  overview: Overview | null;
  /** Sites of the latest search by `file#symbol`, so a site that is not a handbook unit can still be highlighted. */
  askSites: Map<string, AskLocation>;
}

export interface View {
  element: HTMLElement;
  /** Called once the element is in the document (layouts that need a size). */
  mounted?(): void;
  dispose?(): void;
}

export function stageName(context: ViewContext, id: string | null | undefined): string {
  if (!id) return '(no stage)';
  return context.overview?.stages.find((stage) => stage.id === id)?.name ?? id;
}
