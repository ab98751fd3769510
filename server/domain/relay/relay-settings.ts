import type { DeskConfig } from '../../config';
import { invalid } from '../../core/errors';
import type { WorkspaceService } from '../workspace/workspace-service';
import type { RelayClient, RelaySource, RelayStatus } from '../../integrations/relay/relay-client';

/**
 * The relay settings: an application service (it reads the workspace and drives the relay adapter),
 * so it lives under domain/; the adapter in integrations/relay knows nothing of the workspace.
 */

export const RELAY_URL_MAX_LENGTH = 500;

/**
 * A relay channel URL: http(s), at most 500 characters, no user:password part (fetch refuses
 * URLs with credentials, so such a channel could never connect). Returns it trimmed.
 */
export function checkRelayUrl(field: string, value: string): string {
  const url = value.trim();
  if (url.length === 0) throw invalid(field, 'must be an http(s) URL, or null to remove the relay channel');
  if (url.length > RELAY_URL_MAX_LENGTH) throw invalid(field, `must be at most ${RELAY_URL_MAX_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(field, 'must be an http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(field, 'must be an http(s) URL');
  if (parsed.username || parsed.password) throw invalid(field, 'must not contain a user name or password');
  return url;
}

/**
 * The channel the relay listens on. The value stored in the workspace (Settings > Integrations,
 * PUT /integrations/relay) wins; without one, DESK_RELAY_URL is the default; without either the
 * relay is off.
 */
export async function effectiveRelayUrl(
  workspace: WorkspaceService,
  config: DeskConfig,
): Promise<{ url: string; source: RelaySource } | null> {
  const stored = await workspace.relayUrl();
  if (stored) return { url: stored, source: 'workspace' };
  if (config.relayUrl) return { url: config.relayUrl, source: 'env' };
  return null;
}

interface RelayDeps {
  workspace: WorkspaceService;
  config: DeskConfig;
  relay: RelayClient;
}

/** (Re)starts the relay on the effective channel, or stops it when there is none. */
export async function applyRelaySettings({ workspace, config, relay }: RelayDeps): Promise<RelayStatus> {
  const channel = await effectiveRelayUrl(workspace, config);
  if (channel === null) await relay.stop();
  else {
    const current = relay.status();
    // A healthy connection on the same channel is kept; anything else (re)connects now.
    const healthy = current.channelUrl === channel.url && (current.state === 'connected' || current.state === 'connecting');
    if (healthy) relay.setSource(channel.source);
    else relay.start(channel.url, channel.source);
  }
  return relay.status();
}

/**
 * Stores the workspace relay channel (logged by the workspace service in the same transaction)
 * and moves the running relay onto it. null removes the stored channel: the relay then falls back
 * to DESK_RELAY_URL when that is set, and stops otherwise.
 */
export async function setRelayChannel(deps: RelayDeps, relayUrl: string | null): Promise<RelayStatus> {
  const value = relayUrl === null ? null : checkRelayUrl('relayUrl', relayUrl);
  await deps.workspace.setRelayUrl(value);
  return applyRelaySettings(deps);
}
