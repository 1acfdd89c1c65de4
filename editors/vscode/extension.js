// The VS Code side of `attractor lsp`: starts the language server for .dot files and talks to it over
// stdio. Everything the editor shows comes from the server; this file only starts it.

const { workspace } = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const settings = workspace.getConfiguration('attractor');
  const server = {
    command: settings.get('command', 'attractor'),
    // TransportKind.stdio adds `--stdio`.
    args: [...settings.get('args', []), 'lsp'],
    transport: TransportKind.stdio,
    options: { shell: process.platform === 'win32' },
  };
  client = new LanguageClient(
    'attractor',
    'Attractor',
    { run: server, debug: server },
    {
      documentSelector: [{ scheme: 'file', language: 'dot' }],
      initializationOptions: { knownTypes: settings.get('knownTypes', []) },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
