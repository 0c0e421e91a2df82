/**
 * A realistic tool set for a coding agent, written for this course (not copied from any product): files,
 * search, shell, git, web, an issue tracker, CI and chat. Each definition is a name, a description and a JSON
 * Schema for its arguments, as the OpenAI and Anthropic tool-use APIs take them. Lesson 07.07 counts their
 * tokens with a real tokenizer (in the worker) and orders them in a prompt.
 */

import { int, obj, str, type ToolDefinition } from './jsonSchema';
import { TEAM_TOOLS } from './teamTools';
import { WORKSPACE_TOOLS } from './workspaceTools';

/** The whole set in the order a prompt lists it: the workspace's tools, then the team's. */
export const AGENT_TOOLS: readonly ToolDefinition[] = [...WORKSPACE_TOOLS, ...TEAM_TOOLS];

/** The extra tool the lesson's layout widget adds mid-session (an MCP server connecting, say). */
export const ADDED_TOOL: ToolDefinition = {
  group: 'observability',
  name: 'metrics_query',
  description:
    'Query the metrics backend with PromQL over a time range and return the series as timestamped values. Use it to check error rates, latencies and saturation before and after a deploy.',
  parameters: obj(
    {
      promql: str('PromQL expression, e.g. rate(http_requests_total{status=~"5.."}[5m]).'),
      start: str('Start of the range, RFC 3339 or relative such as "-1h".'),
      end: str('End of the range (default: now).'),
      step_seconds: int('Resolution of the returned series.', 1, 3600),
    },
    ['promql', 'start'],
  ),
};
