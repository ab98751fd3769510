import { Body, Controller, Get, Put, Route, Security, Tags } from '@tsoa/runtime';
import type { RelayStatus } from '../../integrations/relay/relay-client';
import { setRelayChannel } from '../../domain/relay/relay-settings';
import { webhookUrl } from '../../domain/ingest/rules';
import type { Services } from '../../services';

export interface InboundWebhookInfo {
  /**
   * The workspace webhook URL on this machine: POST a signal (or `{ signals: [...] }`) here. It
   * contains the workspace token, which also opens the whole API: prefer a source's scoped ingest
   * URL (POST /api/v1/sources/{id}/ingest-tokens), which can only push signals to that source.
   */
  localUrl: string;
  /** The public relay channel that forwards to localUrl, or null when no relay is set. */
  relayedUrl: string | null;
  note: string;
}

export interface InboundIntegrations {
  inboundWebhook: InboundWebhookInfo;
  relay: RelayStatus;
}

export interface RelayUrlBody {
  /**
   * The relay channel to subscribe to (smee protocol: https://smee.io/<channel> or a self-hosted
   * smee server), http(s), at most 500 characters. null removes the stored channel; the relay then
   * falls back to DESK_RELAY_URL when that is set, and stops otherwise.
   * @example "https://smee.io/AbC123xyz"
   */
  relayUrl: string | null;
}

/**
 * Settings > Integrations: the inbound webhook address and the relay that reaches it when the desk
 * is behind NAT. These answers contain the ingest token and the relay channel, so they are
 * bearer-only (the public integration catalog is a different endpoint: GET /integrations).
 */
@Route('api/v1/integrations')
@Tags('Integrations')
@Security('bearer')
export class IntegrationsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** Where to send inbound signals: the local webhook URL, the relay channel, and the relay status. */
  @Get('inbound')
  public async getInbound(): Promise<InboundIntegrations> {
    const relay = this.s.relay.status();
    const channel = relay.channelUrl;
    return {
      inboundWebhook: {
        localUrl: webhookUrl(this.s.localUrl, this.s.token),
        relayedUrl: channel,
        note: channel
          ? 'Senders outside this machine POST JSON to relayedUrl; the relay hands each request to the desk as a delivery to localUrl. Keep both URLs secret: each lets anyone add signals.'
          : 'localUrl is reachable from this machine only. To receive signals from outside (the desk is usually behind NAT), set a relay channel, e.g. a new channel from https://smee.io/new, with PUT /integrations/relay or DESK_RELAY_URL.',
      },
      relay,
    };
  }

  /** The relay status: connected or not, last relayed request, last error, counts. */
  @Get('relay')
  public async getRelay(): Promise<RelayStatus> {
    return this.s.relay.status();
  }

  /**
   * Sets or removes the workspace relay channel (logged as `workspace.relay_url`) and moves the
   * relay onto it at once. The stored channel wins over DESK_RELAY_URL.
   */
  @Put('relay')
  public async setRelay(@Body() body: RelayUrlBody): Promise<RelayStatus> {
    return setRelayChannel({ workspace: this.s.workspace, config: this.s.config, relay: this.s.relay }, body.relayUrl);
  }
}
