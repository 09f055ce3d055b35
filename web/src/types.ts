/**
 * The JSON shapes of the viewer's API (`handbook serve`) and of a static site's data/ folder:
 * the server's own schemas (src/serve/api-schemas.ts), imported as types only, so the app is
 * checked against the contract the server validates and nothing of zod reaches the bundle.
 */
import type {
  AskResponse,
  GraphResponse,
  OverviewResponse,
  RegisterResponse,
  SourceResponse,
  StageResponse,
  SyncEvent as SyncEventResponse,
  UnitResponse,
} from '../../src/serve/api-schemas.js';

export type { AccessSite, LiveSite } from '../../src/serve/api-schemas.js';
export type Overview = OverviewResponse;
export type OverviewStage = Overview['stages'][number];
export type StageDetail = StageResponse;
export type StageMember = StageDetail['members'][number];
export type Register = RegisterResponse;
export type RegisterSlot = Register['slots'][number];
export type UnitDetail = UnitResponse;
export type UnitNeighbour = UnitDetail['callers'][number];
export type Freshness = UnitDetail['status'];
export type SourceFile = SourceResponse;
export type AskResult = AskResponse;
export type AskLocation = AskResult['locations'][number];
export type GraphData = GraphResponse;
export type SyncEvent = SyncEventResponse;
