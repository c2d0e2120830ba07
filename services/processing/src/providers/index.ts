// Public surface of the provider wiring and config.
export * from './processing-config.ts';
export { createAiProviders, type AiProviderOptions, type AiProviders } from './create-ai-providers.ts';
export { createOpenAiClient, parseJsonObject } from './openai-client.ts';
