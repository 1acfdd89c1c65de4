import type { NodeStatus } from './run-state.js';
import type { ThemeRole } from './theme.js';

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The mark and colour role of a status; `frame` animates the running spinner. */
export function statusMark(status: NodeStatus, frame: number): { mark: string; role: ThemeRole } {
  switch (status) {
    case 'pending':
      return { mark: '○', role: 'muted' };
    case 'running':
      return { mark: SPINNER[frame % SPINNER.length] as string, role: 'running' };
    case 'success':
      return { mark: '✓', role: 'ok' };
    case 'partial':
      return { mark: '◐', role: 'warn' };
    case 'retrying':
      return { mark: '↻', role: 'warn' };
    case 'failed':
      return { mark: '✗', role: 'fail' };
    case 'skipped':
      return { mark: '⊘', role: 'muted' };
  }
}
