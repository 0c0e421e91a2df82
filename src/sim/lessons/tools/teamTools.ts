/**
 * The half of the course's coding-agent tool set (agentTools.ts) that reaches beyond the workspace: the web, the
 * issue tracker, code review, CI, notebooks, chat and planning. Written for this course, not copied from any
 * product.
 */
import { bool, int, obj, str, type ToolDefinition } from './jsonSchema';

export const TEAM_TOOLS: readonly ToolDefinition[] = [
  {
    group: 'web',
    name: 'web_fetch',
    description:
      'Fetch a URL over HTTPS and return its main content converted to Markdown, with links kept. HTML boilerplate (navigation, ads) is removed. Large pages are truncated; use the prompt argument to say what to extract.',
    parameters: obj(
      {
        url: str('Absolute https URL to fetch.'),
        prompt: str('What information to extract from the page.'),
        max_chars: int('Truncate the returned content to this many characters.', 500, 100000),
      },
      ['url'],
    ),
  },
  {
    group: 'web',
    name: 'web_search',
    description:
      'Search the web and return the top results with title, URL and a snippet. Use specific queries; include version numbers and exact error messages when looking for a fix.',
    parameters: obj(
      {
        query: str('The search query.'),
        num_results: int('Number of results.', 1, 20),
        allowed_domains: {
          type: 'array',
          description: 'Only return results from these domains.',
          items: { type: 'string' },
        },
        recency_days: int('Only results published within this many days.', 1),
      },
      ['query'],
    ),
  },
  {
    group: 'web',
    name: 'http_request',
    description:
      'Send an HTTP request to an API the user has allowed and return the status, headers and body. Credentials are injected by the runtime; never put secrets in the arguments.',
    parameters: obj(
      {
        method: {
          type: 'string',
          description: 'HTTP method.',
          enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        },
        url: str('Absolute URL of the endpoint.'),
        headers: {
          type: 'object',
          description: 'Request headers.',
          additionalProperties: { type: 'string' },
        },
        body: str('Request body, usually JSON.'),
      },
      ['method', 'url'],
    ),
  },
  {
    group: 'issues',
    name: 'issue_search',
    description:
      'Search the issue tracker with a query (free text plus filters such as state, label, assignee, milestone) and return matching issues with number, title, state, labels and last update.',
    parameters: obj(
      {
        query: str('Free-text query.'),
        state: { type: 'string', description: 'Issue state.', enum: ['open', 'closed', 'all'] },
        labels: {
          type: 'array',
          description: 'Issues must carry all of these labels.',
          items: { type: 'string' },
        },
        assignee: str('Login of the assignee; "none" for unassigned.'),
        limit: int('Maximum number of issues.', 1, 100),
      },
      [],
    ),
  },
  {
    group: 'issues',
    name: 'issue_get',
    description: 'Get one issue with its description, comments, linked pull requests and timeline events.',
    parameters: obj(
      {
        number: int('Issue number.', 1),
        include_comments: bool('Include the comment thread.', true),
      },
      ['number'],
    ),
  },
  {
    group: 'issues',
    name: 'issue_create',
    description:
      'Open a new issue. Write a title that states the problem and a body with steps to reproduce, expected and actual behaviour, and the environment.',
    parameters: obj(
      {
        title: str('Issue title.'),
        body: str('Issue body in Markdown.'),
        labels: { type: 'array', description: 'Labels to apply.', items: { type: 'string' } },
        assignees: { type: 'array', description: 'Logins to assign.', items: { type: 'string' } },
      },
      ['title', 'body'],
    ),
  },
  {
    group: 'issues',
    name: 'issue_comment',
    description: 'Add a comment to an issue or pull request.',
    parameters: obj({ number: int('Issue or pull request number.', 1), body: str('Comment in Markdown.') }, [
      'number',
      'body',
    ]),
  },
  {
    group: 'issues',
    name: 'issue_update',
    description: 'Change the state, title, labels or assignees of an issue. Fields left out are not changed.',
    parameters: obj(
      {
        number: int('Issue number.', 1),
        state: { type: 'string', description: 'New state.', enum: ['open', 'closed'] },
        title: str('New title.'),
        add_labels: { type: 'array', description: 'Labels to add.', items: { type: 'string' } },
        remove_labels: { type: 'array', description: 'Labels to remove.', items: { type: 'string' } },
      },
      ['number'],
    ),
  },
  {
    group: 'review',
    name: 'pr_create',
    description:
      'Open a pull request from a pushed branch. The description should say what changed, why, and how it was tested, and reference the issues it closes.',
    parameters: obj(
      {
        title: str('Pull request title.'),
        body: str('Description in Markdown.'),
        head: str('Branch with the changes.'),
        base: str('Branch to merge into (default: the repository default branch).'),
        draft: bool('Open as a draft.', false),
      },
      ['title', 'head'],
    ),
  },
  {
    group: 'review',
    name: 'pr_review_comments',
    description:
      'List the review comments on a pull request, grouped by file and line, with their resolution state.',
    parameters: obj(
      { number: int('Pull request number.', 1), unresolved_only: bool('Only unresolved threads.', true) },
      ['number'],
    ),
  },
  {
    group: 'ci',
    name: 'ci_status',
    description:
      'Get the status of the continuous-integration runs for a commit or pull request: each job with its state, duration and a link to its log.',
    parameters: obj(
      {
        ref: str('Commit hash, branch name or "pr/<number>".'),
        failed_only: bool('Only list failed jobs.', false),
      },
      ['ref'],
    ),
  },
  {
    group: 'ci',
    name: 'ci_job_log',
    description: 'Fetch the log of one CI job, optionally only the lines around the first error.',
    parameters: obj(
      {
        job_id: str('Id of the job, from ci_status.'),
        around_first_error: bool('Return only about 200 lines around the first error.', true),
      },
      ['job_id'],
    ),
  },
  {
    group: 'notebook',
    name: 'python_exec',
    description:
      'Execute Python code in a persistent sandboxed interpreter (state survives between calls) and return stdout, the value of the last expression, and any figures as PNG. pandas, numpy and matplotlib are installed; there is no network access.',
    parameters: obj(
      {
        code: str('Python source to execute.'),
        timeout_seconds: int('Interrupt after this many seconds.', 1, 600),
      },
      ['code'],
    ),
  },
  {
    group: 'notebook',
    name: 'sql_query',
    description:
      'Run a read-only SQL query against the analytics database and return at most max_rows rows as a table. Statements that modify data are rejected.',
    parameters: obj(
      {
        query: str('A single SELECT statement.'),
        max_rows: int('Maximum rows to return.', 1, 10000),
      },
      ['query'],
    ),
  },
  {
    group: 'chat',
    name: 'send_message',
    description:
      'Post a message to a team chat channel or thread. Use it to report progress or ask a question.',
    parameters: obj(
      {
        channel: str('Channel name, e.g. "#deploys".'),
        text: str('Message text; Markdown is supported.'),
        thread_id: str('Reply in this thread instead of the channel.'),
      },
      ['channel', 'text'],
    ),
  },
  {
    group: 'chat',
    name: 'ask_user',
    description:
      'Ask the user a question and wait for the answer. Use it only when the task cannot go on without a decision; offer options when there are a few obvious ones.',
    parameters: obj(
      {
        question: str('The question.'),
        options: { type: 'array', description: 'Suggested answers.', items: { type: 'string' } },
      },
      ['question'],
    ),
  },
  {
    group: 'planning',
    name: 'todo_write',
    description:
      'Replace the task list for this session. Each item has a short imperative title and a status. Keep exactly one item in progress while working, and mark items completed as soon as they are done.',
    parameters: obj(
      {
        items: {
          type: 'array',
          description: 'The full list, in order.',
          items: obj(
            {
              title: str('What to do.'),
              status: {
                type: 'string',
                description: 'Item status.',
                enum: ['pending', 'in_progress', 'completed'],
              },
            },
            ['title', 'status'],
          ),
        },
      },
      ['items'],
    ),
  },
];
