/**
 * A realistic tool set for a coding agent, written for this course (not copied from any product): files,
 * search, shell, git, web, an issue tracker, CI and chat. Each definition is a name, a description and a JSON
 * Schema for its arguments, as the OpenAI and Anthropic tool-use APIs take them. Lesson 07.07 counts their
 * tokens with a real tokenizer (in the worker) and orders them in a prompt.
 */

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: (string | number | boolean)[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  additionalProperties?: boolean | JsonSchema;
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (OpenAI `parameters`, Anthropic `input_schema`). */
  parameters: JsonSchema;
  /** A label for grouping in the widget. */
  group: string;
}

const str = (description: string): JsonSchema => ({ type: 'string', description });
const int = (description: string, minimum?: number, maximum?: number): JsonSchema => ({
  type: 'integer',
  description,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
const bool = (description: string, def?: boolean): JsonSchema => ({
  type: 'boolean',
  description,
  ...(def !== undefined ? { default: def } : {}),
});
const obj = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const AGENT_TOOLS: readonly ToolDefinition[] = [
  {
    group: 'files',
    name: 'read_file',
    description:
      'Read a text file from the workspace and return its contents with line numbers. Use offset and limit to page through large files instead of reading them whole. Binary files are refused.',
    parameters: obj(
      {
        path: str('Path of the file, relative to the workspace root.'),
        offset: int('First line to return, counting from 1.', 1),
        limit: int('Maximum number of lines to return (default 400).', 1, 5000),
      },
      ['path'],
    ),
  },
  {
    group: 'files',
    name: 'write_file',
    description:
      'Create a file or overwrite an existing one with the given contents. Parent directories are created as needed. Prefer edit_file for small changes to an existing file, so that unrelated lines are not rewritten.',
    parameters: obj(
      {
        path: str('Path of the file, relative to the workspace root.'),
        content: str('The complete new contents of the file.'),
      },
      ['path', 'content'],
    ),
  },
  {
    group: 'files',
    name: 'edit_file',
    description:
      'Replace one exact occurrence of a string in a file with another string. The old string must match the file byte for byte, including indentation, and must occur exactly once unless replace_all is set. Read the file first.',
    parameters: obj(
      {
        path: str('Path of the file to edit.'),
        old_string: str('The exact text to replace.'),
        new_string: str('The text to put in its place.'),
        replace_all: bool('Replace every occurrence instead of requiring exactly one.', false),
      },
      ['path', 'old_string', 'new_string'],
    ),
  },
  {
    group: 'files',
    name: 'list_directory',
    description:
      'List the entries of a directory with their kind (file, directory, link) and size in bytes. Entries ignored by .gitignore are hidden unless include_ignored is set.',
    parameters: obj(
      {
        path: str('Directory to list, relative to the workspace root; "." for the root.'),
        depth: int('How many levels to descend (1 = this directory only).', 1, 5),
        include_ignored: bool('Also list entries that .gitignore excludes.', false),
      },
      ['path'],
    ),
  },
  {
    group: 'files',
    name: 'delete_file',
    description:
      'Delete a file from the workspace. Directories are refused. The deletion can be undone with git as long as the file was tracked.',
    parameters: obj({ path: str('Path of the file to delete.') }, ['path']),
  },
  {
    group: 'files',
    name: 'move_file',
    description:
      'Move or rename a file within the workspace. Fails if the destination exists unless overwrite is set.',
    parameters: obj(
      {
        source: str('Current path of the file.'),
        destination: str('New path of the file.'),
        overwrite: bool('Replace the destination if it exists.', false),
      },
      ['source', 'destination'],
    ),
  },
  {
    group: 'search',
    name: 'grep',
    description:
      'Search file contents with a regular expression (ripgrep syntax) and return matching lines with their file and line number. Use glob to restrict the files searched and context_lines to see lines around each match. Results are capped at max_results.',
    parameters: obj(
      {
        pattern: str('Regular expression to search for.'),
        path: str('Directory or file to search in (default: the workspace root).'),
        glob: str('Only search files whose path matches this glob, e.g. "src/**/*.ts".'),
        case_sensitive: bool('Match case exactly.', true),
        context_lines: int('Lines of context to show before and after each match.', 0, 20),
        max_results: int('Stop after this many matches.', 1, 2000),
      },
      ['pattern'],
    ),
  },
  {
    group: 'search',
    name: 'glob',
    description:
      'Find files whose paths match a glob pattern, sorted by modification time, newest first. Use it to locate files by name; use grep to search inside them.',
    parameters: obj(
      {
        pattern: str('Glob pattern, e.g. "**/*.test.ts".'),
        path: str('Directory to search from (default: the workspace root).'),
      },
      ['pattern'],
    ),
  },
  {
    group: 'search',
    name: 'find_symbol',
    description:
      'Look up where a function, class, type or variable is defined and, optionally, everywhere it is referenced, using the language server of the workspace. Faster and more precise than grep for code navigation.',
    parameters: obj(
      {
        symbol: str('Name of the symbol, optionally qualified, e.g. "Cache.lookup".'),
        kind: {
          type: 'string',
          description: 'Restrict the search to one kind of symbol.',
          enum: ['function', 'class', 'interface', 'type', 'variable', 'method', 'any'],
        },
        include_references: bool('Also list every reference to the symbol.', false),
      },
      ['symbol'],
    ),
  },
  {
    group: 'search',
    name: 'semantic_search',
    description:
      'Search the codebase by meaning rather than by exact text: returns the code chunks most similar to a natural-language query, with file, line range and a similarity score. Good for questions like "where are retries configured?".',
    parameters: obj(
      {
        query: str('What to look for, in plain words.'),
        top_k: int('Number of chunks to return.', 1, 50),
        path_prefix: str('Only search under this directory.'),
      },
      ['query'],
    ),
  },
  {
    group: 'shell',
    name: 'run_command',
    description:
      'Run a shell command in the workspace and return its exit code, standard output and standard error (each truncated to the last 30,000 characters). Commands run in a fresh bash shell with a timeout; long-running servers must be started with run_in_background. Never use it to read or edit files when a file tool exists.',
    parameters: obj(
      {
        command: str('The command line to run, e.g. "npm test -- --run".'),
        cwd: str('Working directory relative to the workspace root.'),
        timeout_seconds: int('Kill the command after this many seconds.', 1, 1800),
        run_in_background: bool('Start the command and return at once with a job id.', false),
        env: {
          type: 'object',
          description: 'Extra environment variables for the command.',
          additionalProperties: { type: 'string' },
        },
      },
      ['command'],
    ),
  },
  {
    group: 'shell',
    name: 'read_job_output',
    description:
      'Read new output of a background job started by run_command, and whether it is still running.',
    parameters: obj(
      {
        job_id: str('Id returned by run_command with run_in_background.'),
        since_line: int('Only return lines after this one.', 0),
      },
      ['job_id'],
    ),
  },
  {
    group: 'shell',
    name: 'kill_job',
    description: 'Stop a background job started by run_command.',
    parameters: obj({ job_id: str('Id of the job to stop.') }, ['job_id']),
  },
  {
    group: 'shell',
    name: 'run_tests',
    description:
      "Run the project's test suite, or the tests matching a filter, and return a summary: passed, failed and skipped counts, and for every failure the test name, the assertion message and the relevant stack frames.",
    parameters: obj(
      {
        filter: str('Only run tests whose file or name matches this pattern.'),
        update_snapshots: bool('Rewrite snapshot files instead of comparing against them.', false),
        coverage: bool('Collect line coverage for the files under test.', false),
      },
      [],
    ),
  },
  {
    group: 'git',
    name: 'git_status',
    description:
      'Show the current branch, its upstream, and the files that are staged, modified or untracked, as structured data.',
    parameters: obj({}, []),
  },
  {
    group: 'git',
    name: 'git_diff',
    description:
      'Show a unified diff: of the working tree against the index by default, of the index against HEAD when staged is set, or between two revisions.',
    parameters: obj(
      {
        staged: bool('Diff the index against HEAD.', false),
        base: str('Base revision, e.g. "main" or a commit hash.'),
        head: str('Head revision (default: the working tree).'),
        paths: { type: 'array', description: 'Limit the diff to these paths.', items: { type: 'string' } },
      },
      [],
    ),
  },
  {
    group: 'git',
    name: 'git_commit',
    description:
      'Stage the given paths and create a commit with the given message. Never stages files that were not named. Fails when there is nothing to commit.',
    parameters: obj(
      {
        message: str('Commit message: a short summary line, a blank line, then details.'),
        paths: { type: 'array', description: 'Paths to stage before committing.', items: { type: 'string' } },
      },
      ['message', 'paths'],
    ),
  },
  {
    group: 'git',
    name: 'git_log',
    description:
      'List recent commits with hash, author, date and summary, optionally only those touching a path.',
    parameters: obj(
      {
        max_count: int('Number of commits to list.', 1, 200),
        path: str('Only commits that touch this path.'),
        revision: str('Start from this revision (default: HEAD).'),
      },
      [],
    ),
  },
  {
    group: 'git',
    name: 'git_branch',
    description: 'Create, switch to, or list branches. Switching refuses to discard uncommitted changes.',
    parameters: obj(
      {
        action: { type: 'string', description: 'What to do.', enum: ['list', 'create', 'switch'] },
        name: str('Branch name, for create and switch.'),
        start_point: str('Revision the new branch starts from (default: HEAD).'),
      },
      ['action'],
    ),
  },
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
