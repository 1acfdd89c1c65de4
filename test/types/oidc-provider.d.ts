/** The part of `oidc-provider` 9 (untyped JavaScript) the sign-in test uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientSettings {
    client_id: string;
    client_secret: string;
    redirect_uris: string[];
    token_endpoint_auth_method?: string;
  }
  interface Account {
    accountId: string;
    claims: () => Record<string, unknown>;
  }
  interface Configuration {
    clients: ClientSettings[];
    findAccount: (ctx: unknown, id: string) => Account | Promise<Account>;
    claims?: Record<string, string[]>;
    cookies?: { keys: string[] };
  }
  // biome-ignore lint/style/noDefaultExport: the package exports its Provider class as the default
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
