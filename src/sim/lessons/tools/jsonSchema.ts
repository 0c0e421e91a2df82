/**
 * A tool definition as the OpenAI and Anthropic tool-use APIs take it (a name, a description, a JSON Schema of
 * its arguments), and the few schema builders the course's tool set (agentTools.ts) is written with: apart so that
 * the tool set's two halves and the lesson's prompt layout share one type.
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

export const str = (description: string): JsonSchema => ({ type: 'string', description });
export const int = (description: string, minimum?: number, maximum?: number): JsonSchema => ({
  type: 'integer',
  description,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
export const bool = (description: string, def?: boolean): JsonSchema => ({
  type: 'boolean',
  description,
  ...(def !== undefined ? { default: def } : {}),
});
export const obj = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
