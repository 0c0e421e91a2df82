/**
 * The half of the course's coding-agent tool set (agentTools.ts) that works on the agent's own workspace: files,
 * search, shell and git. Written for this course, not copied from any product.
 */
import { bool, int, obj, str, type ToolDefinition } from './jsonSchema';

export const WORKSPACE_TOOLS: readonly ToolDefinition[] = [
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
];
