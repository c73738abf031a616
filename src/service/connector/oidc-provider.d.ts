/** oidc-provider ships no declarations; the service uses it through ./oidc-provider-types. */
declare module 'oidc-provider' {
  const Provider: new (issuer: string, configuration: Record<string, unknown>) => unknown;
  export default Provider;
  export const errors: Record<string, new (description?: string) => Error & { statusCode: number; error: string }>;
}
