import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { LIMITS } from '../../api/rules.gen';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { SubmitActions } from '../../components/SubmitActions';
import { TokenList } from '../../components/TokenList';
import { CopyButton } from '../ingest/WebhookUrl';
import { mcpTokensQuery, useCreateMcpToken, useRevokeMcpToken, type CreatedMcpToken, type McpTokenScope } from './mcp-api';
import { claudeDesktopConfig, streamableHttpConfig } from './mcp-snippets';

const SCOPE_TEXT: Record<McpTokenScope, string> = { read: 'Read only', write: 'Read and write' };

/** A configuration to paste, with its copy button. */
function Snippet({ name, text }: { name: string; text: string }) {
  return (
    <div className="code-example">
      <pre className="code-block" aria-label={name} tabIndex={0}>
        <code>{text}</code>
      </pre>
      <div className="actions">
        <CopyButton text={text} label="Copy" name={name} />
      </div>
    </div>
  );
}

/** The token just issued: shown once, with a copy button. */
function IssuedToken({ created }: { created: CreatedMcpToken }) {
  return (
    <div className="scoped-urls__created" role="status">
      <Field label="New MCP token" hint="Shown once: copy it now (the configurations below have it filled in). Desk keeps only a hash of it." after={<CopyButton text={created.token} name="new MCP token" />}>
        {(control) => <input {...control} className="input input--code" readOnly value={created.token} onFocus={(e) => e.target.select()} />}
      </Field>
    </div>
  );
}

/**
 * Settings > Integrations > AI assistants: issue an MCP token (read only or read and write; shown
 * once), list and revoke the active ones, and the configurations for Claude Desktop (stdio through
 * `npm run mcp`) and any Streamable HTTP client, with the new token filled in.
 */
export function McpAssistants() {
  const tokens = useQuery(mcpTokensQuery());
  const create = useCreateMcpToken();
  const revoke = useRevokeMcpToken();
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState<McpTokenScope>('read');
  const [created, setCreated] = useState<CreatedMcpToken | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { label: label.trim() || undefined, scope },
      {
        onSuccess: (made) => {
          setCreated(made);
          setLabel('');
        },
      },
    );
  };
  const data = tokens.data;
  const list = data?.mcpTokens ?? [];
  const token = created?.token ?? null;
  return (
    <div className="scoped-urls" role="group" aria-label="MCP tokens">
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label="Used by" hint="The assistant and machine, to tell tokens apart; “AI assistant” when left empty." error={fieldError(create.error, 'label')}>
          {(control) => <input {...control} className="input" value={label} maxLength={LIMITS.CreateMcpTokenBody.label.maxLength} onChange={(e) => setLabel(e.target.value)} />}
        </Field>
        <Field
          label="Access"
          hint="Read only: the assistant can look (queue, outputs, search, spend, the loop). Read and write: it can also approve, archive, add signals, tasks and notes, run cycles and pause the loop, when you ask it to."
          error={fieldError(create.error, 'scope')}
          after={<SubmitActions mutation={create} label="Issue MCP token" secondary />}
        >
          {(control) => (
            <select {...control} className="input" value={scope} onChange={(e) => setScope(e.target.value as McpTokenScope)}>
              <option value="read">{SCOPE_TEXT.read}</option>
              <option value="write">{SCOPE_TEXT.write}</option>
            </select>
          )}
        </Field>
        <FormError error={create.error} fields={['label', 'scope']} />
      </form>
      {created ? <IssuedToken created={created} /> : null}
      {list.length > 0 ? (
        <TokenList
          tokens={list}
          name="Active MCP tokens"
          describe={(t) => SCOPE_TEXT[t.scope]}
          revokeQuestion={(t) => `Revoke ${t.label}? The assistant using it is refused from its next request.`}
          revoking={revoke.isPending}
          onRevoke={(t) => {
            if (created?.id === t.id) setCreated(null);
            revoke.mutate(t.id);
          }}
        />
      ) : tokens.isSuccess ? (
        <p className="muted small">No MCP token yet.</p>
      ) : null}
      {data ? (
        <>
          <h4 className="setting__title">Claude Desktop</h4>
          <p className="muted small">
            In claude_desktop_config.json; replace /path/to/desk with the folder you run <code>npm start</code> in. It reaches this desk while it runs, and starts one on the same data folder when none does.
          </p>
          <Snippet name="Claude Desktop configuration" text={claudeDesktopConfig({ token, dataDir: data.dataDir })} />
          <h4 className="setting__title">Any Streamable HTTP client</h4>
          <p className="muted small">
            URL <code>{data.mcpUrl}</code> with the header <code>Authorization: Bearer &lt;token&gt;</code> (Cursor, VS Code and others take this form).
          </p>
          <Snippet name="Streamable HTTP configuration" text={streamableHttpConfig({ token, mcpUrl: data.mcpUrl })} />
        </>
      ) : null}
      <FormError error={revoke.error ?? tokens.error} />
    </div>
  );
}
