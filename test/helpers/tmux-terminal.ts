import { execFileSync } from 'node:child_process';

/**
 * A real terminal for end-to-end TUI tests: a tmux session on a private server socket (so tests never
 * touch anyone's tmux), a command typed into a shell, the screen read back as plain text.
 */
export interface TmuxTerminal {
  screen(): string;
  /** The scrollback above the screen and the screen, as plain text. */
  history(): string;
  /** Waits until the screen matches, or throws with the last screen. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  keys(...keys: string[]): void;
  /** Resizes the window as a user dragging the terminal's edge would (the program gets SIGWINCH). */
  resize(columns: number, rows?: number): void;
  /** 1 when the cursor is visible. */
  cursorVisible(): boolean;
  close(): void;
}

export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

let counter = 0;

export function openTmux(
  command: string,
  options: { cwd: string; columns?: number; rows?: number },
): TmuxTerminal {
  const socket = `attractor-test-${process.pid}-${++counter}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', stdio: 'pipe' });
  // The shell stays after the command so its exit code and terminal state can be read on screen.
  const script = `${command}; echo "EXIT=$?"; stty -a | grep -o -- '-\\?icanon'; sleep 600`;
  tmux(
    'new-session',
    '-d',
    '-s',
    'main',
    '-x',
    String(options.columns ?? 100),
    '-y',
    String(options.rows ?? 45),
    '-c',
    options.cwd,
    'env',
    '-u',
    'CI',
    '-u',
    'NO_COLOR',
    'TERM=xterm-256color',
    'bash',
    '--norc',
    '-c',
    script,
  );
  const screen = () => tmux('capture-pane', '-p', '-t', 'main');
  return {
    screen,
    history: () => tmux('capture-pane', '-p', '-S', '-', '-t', 'main'),
    async waitFor(pattern, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < until) {
        last = screen();
        if (pattern.test(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the terminal never showed ${pattern}; last screen:\n${last}`);
    },
    keys: (...keys) => {
      tmux('send-keys', '-t', 'main', ...keys);
    },
    resize: (columns, rows) => {
      tmux('resize-window', '-t', 'main', '-x', String(columns), ...(rows ? ['-y', String(rows)] : []));
    },
    cursorVisible: () => tmux('display-message', '-p', '-t', 'main', '#{cursor_flag}').trim() === '1',
    close: () => {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
    },
  };
}
