import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { OutboundWebhooksSection } from './OutboundWebhooksSection';

const AT = '2026-03-10T12:00:00.000Z';
const SECRET = 'whsec_c2VjcmV0LWJ5dGVzLXRoYXQtYXJlLXNob3duLW9uY2UhISE=';
const vocabulary: Schema<'OutboundEventInfo'>[] = [
  { name: 'task.created', area: 'task', description: 'A task was created.' },
  { name: 'task.unblocked', area: 'task', description: 'A task was unblocked.' },
  { name: 'artifact.ready', area: 'artifact', description: 'An output is ready.' },
];

function aSubscription(over: Partial<Schema<'OutboundSubscription'>> = {}): Schema<'OutboundSubscription'> {
  return {
    id: 'whk_1',
    url: 'https://hooks.example.com/desk',
    label: 'Ops bot',
    events: ['task.created'],
    active: true,
    status: 'active',
    disabledReason: null,
    disabledAt: null,
    failingSince: null,
    secretHint: 'whsec_…ISE=',
    pendingDeliveries: 0,
    lastAttempt: null,
    createdAt: AT,
    updatedAt: AT,
    ...over,
  };
}

function anAttempt(over: Partial<Schema<'DeliveryAttempt'>> = {}): Schema<'DeliveryAttempt'> {
  return {
    id: 'dat_1',
    deliveryId: 'dlv_1',
    subscriptionId: 'whk_1',
    subscriptionLabel: 'Ops bot',
    event: 'task.created',
    webhookId: 'evt_1',
    url: 'https://hooks.example.com/desk',
    attemptNumber: 1,
    trigger: 'scheduled',
    outcome: 'failed',
    statusCode: 503,
    error: 'HTTP 503',
    responseExcerpt: 'upstream down',
    durationMs: 42,
    nextRetryAt: '2026-03-10T12:00:05.000Z',
    deliveryState: 'pending',
    createdAt: AT,
    ...over,
  };
}

/** The outbound API as the server behaves, in memory. */
function fakeDesk(initial: Schema<'OutboundSubscription'>[] = [], log: Schema<'DeliveryAttempt'>[] = []) {
  let subs = [...initial];
  const attempts = [...log];
  return fakeFetch((call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/outbound/subscriptions') return json(200, { subscriptions: subs, events: vocabulary });
    if (method === 'POST' && path === '/api/v1/outbound/subscriptions') {
      const body = call.body as { url: string; events: string[]; label?: string };
      if (!body.url.startsWith('http')) return json(422, { error: 'validation_failed', message: 'url must be an http(s) URL', details: [{ field: 'url', message: 'must be an http(s) URL' }] });
      const made = aSubscription({ id: 'whk_new', url: body.url, label: body.label ?? null, events: body.events as Schema<'OutboundSubscription'>['events'] });
      subs = [...subs, made];
      return json(201, { ...made, secret: SECRET });
    }
    if (method === 'POST' && path === '/api/v1/outbound/subscriptions/whk_1/test') {
      const a = anAttempt({ id: 'dat_test', event: 'artifact.test', trigger: 'manual', outcome: 'succeeded', statusCode: 204, error: null, durationMs: 12, nextRetryAt: null, deliveryState: 'succeeded' });
      attempts.unshift(a);
      return json(200, a);
    }
    if (method === 'POST' && path === '/api/v1/outbound/subscriptions/bulk') {
      const body = call.body as { action: string; subscriptionIds: string[] };
      subs = subs.map((s) => (body.subscriptionIds.includes(s.id) ? { ...s, active: body.action === 'resume', status: body.action === 'resume' ? 'active' : 'paused' } : s));
      return json(200, { action: body.action, affected: body.subscriptionIds.length, changed: body.subscriptionIds, unchanged: [], notFound: [] });
    }
    if (method === 'GET' && path === '/api/v1/outbound/deliveries') return json(200, { deliveries: attempts, nextCursor: null });
    if (method === 'POST' && path === '/api/v1/outbound/deliveries/dat_1/retry') {
      const a = anAttempt({ id: 'dat_2', attemptNumber: 2, trigger: 'manual', outcome: 'succeeded', statusCode: 200, error: null, nextRetryAt: null, deliveryState: 'succeeded' });
      attempts.unshift(a);
      return json(200, a);
    }
    return noFake(call);
  });
}

beforeEach(() => {
  useAuth.setState({ token: 'token', status: 'signed-in' });
});

describe('OutboundWebhooksSection', () => {
  it('creates a subscription with events picked by area, shows the secret once with a copy button, then never again', async () => {
    const desk = fakeDesk();
    renderWithApp(<OutboundWebhooksSection />);
    expect(await screen.findByText(/No subscription yet/)).toBeTruthy();
    const form = screen.getByRole('form', { name: 'New webhook subscription' });
    fireEvent.change(within(form).getByLabelText('Receiver URL'), { target: { value: 'https://hooks.example.com/desk' } });
    fireEvent.change(within(form).getByLabelText('Label'), { target: { value: 'Ops bot' } });
    // nothing chosen: the form says so and sends nothing
    fireEvent.click(within(form).getByRole('button', { name: 'Create subscription' }));
    expect(await within(form).findByText('Choose at least one event')).toBeTruthy();
    expect(desk.calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(form).getByLabelText('All task events'));
    fireEvent.click(within(form).getByRole('button', { name: 'Create subscription' }));

    const secret = await screen.findByRole('region', { name: 'Signing secret' });
    expect(within(secret).getByRole('textbox', { name: 'Signing secret' })).toHaveProperty('value', SECRET);
    expect(within(secret).getByRole('button', { name: 'Copy signing secret' })).toBeTruthy();
    expect(secret.textContent).toMatch(/you won.t see it again/);
    const post = desk.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ url: 'https://hooks.example.com/desk', events: ['task.created', 'task.unblocked'], label: 'Ops bot' });
    // the list shows the new subscription with its hint only
    const table = await screen.findByRole('table', { name: 'Webhook subscriptions' });
    expect(table.textContent).toContain('whsec_…ISE=');
    expect(table.textContent).not.toContain(SECRET);
    fireEvent.click(within(secret).getByRole('button', { name: 'I have stored it' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Signing secret' })).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('a create the server refuses names the field', async () => {
    fakeDesk();
    renderWithApp(<OutboundWebhooksSection />);
    const form = await screen.findByRole('form', { name: 'New webhook subscription' });
    fireEvent.change(within(form).getByLabelText('Receiver URL'), { target: { value: 'ftp://nope' } });
    fireEvent.click(within(form).getByLabelText('All events'));
    fireEvent.click(within(form).getByRole('button', { name: 'Create subscription' }));
    await waitFor(() => expect(within(form).getByLabelText('Receiver URL').getAttribute('aria-invalid')).toBe('true'));
  });

  it('sends a test and shows its outcome; shows a disabled subscription with its reason', async () => {
    const desk = fakeDesk([aSubscription(), aSubscription({ id: 'whk_2', label: 'Old CRM', active: false, status: 'disabled', disabledReason: 'gone', disabledAt: AT })]);
    renderWithApp(<OutboundWebhooksSection />);
    expect(await screen.findByText(/the receiver answered 410 Gone/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send test to Ops bot' }));
    expect(await screen.findByText('Test Delivered: HTTP 204 in 12 ms')).toBeTruthy();
    expect(desk.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/outbound/subscriptions/whk_1/test')).toBe(true);
  });

  it('pauses the selected subscriptions in bulk', async () => {
    const desk = fakeDesk([aSubscription(), aSubscription({ id: 'whk_2', label: 'CRM' })]);
    renderWithApp(<OutboundWebhooksSection />);
    fireEvent.click(await screen.findByLabelText('Select all subscriptions'));
    fireEvent.click(screen.getByRole('button', { name: 'Pause selected' }));
    await waitFor(() => expect(desk.calls.find((c) => c.path === '/api/v1/outbound/subscriptions/bulk')?.body).toEqual({ action: 'pause', subscriptionIds: ['whk_1', 'whk_2'] }));
    await waitFor(() => expect(screen.getAllByText('Paused')).toHaveLength(2));
  });

  it('lists attempts in the delivery log with the excerpt expandable, and retries one', async () => {
    const desk = fakeDesk([aSubscription()], [anAttempt()]);
    renderWithApp(<OutboundWebhooksSection />);
    const log = await screen.findByRole('table', { name: 'Delivery log' });
    const row = within(log).getAllByRole('row')[1];
    expect(row.textContent).toContain('task.created');
    expect(row.textContent).toContain('503');
    expect(row.textContent).toContain('#1');
    expect(within(row).getByText('Response')).toBeTruthy();
    expect(row.textContent).toContain('upstream down');
    fireEvent.click(within(row).getByRole('button', { name: 'Retry task.created #1' }));
    await waitFor(() => expect(desk.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/outbound/deliveries/dat_1/retry')).toBe(true));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Delivery log' })).getAllByRole('row')).toHaveLength(3));
    expect(screen.getByRole('table', { name: 'Delivery log' }).textContent).toContain('#2');
  });
});
