/** Tool-call schemas for lesson 07.08's mask widget, each with a valid instance the "model" writes. */

export interface SchemaPreset {
  id: string;
  label: string;
  schema: object;
  document: object;
}

export const SCHEMA_PRESETS: readonly SchemaPreset[] = [
  {
    id: 'get-weather',
    label: 'get_weather (city, unit enum)',
    schema: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
    document: { city: 'Lisbon', unit: 'celsius' },
  },
  {
    id: 'run-shell',
    label: 'run_shell (command, timeout, flags)',
    schema: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        timeout_s: { type: 'integer', minimum: 1, maximum: 600 },
        background: { type: 'boolean' },
      },
      required: ['command', 'timeout_s', 'background'],
      additionalProperties: false,
    },
    document: { command: 'grep -rn "TODO" src/', timeout_s: 30, background: false },
  },
  {
    id: 'tool-choice',
    label: 'one of three tools (anyOf)',
    schema: {
      anyOf: [
        {
          type: 'object',
          properties: {
            name: { const: 'search_web' },
            arguments: {
              type: 'object',
              properties: { query: { type: 'string' } },
              required: ['query'],
              additionalProperties: false,
            },
          },
          required: ['name', 'arguments'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            name: { const: 'read_file' },
            arguments: {
              type: 'object',
              properties: { path: { type: 'string' }, max_lines: { type: 'integer' } },
              required: ['path', 'max_lines'],
              additionalProperties: false,
            },
          },
          required: ['name', 'arguments'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            name: { const: 'finish' },
            arguments: {
              type: 'object',
              properties: { answer: { type: 'string' } },
              required: ['answer'],
              additionalProperties: false,
            },
          },
          required: ['name', 'arguments'],
          additionalProperties: false,
        },
      ],
    },
    document: { name: 'read_file', arguments: { path: 'src/app/main.ts', max_lines: 200 } },
  },
];

export function findPreset(id: string): SchemaPreset | undefined {
  return SCHEMA_PRESETS.find((p) => p.id === id);
}
