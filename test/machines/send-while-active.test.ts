import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { sendWhileActive } from '../../src/machines/send-while-active.js';

const machine = createMachine({
  initial: 'working',
  states: {
    working: { on: { CANCEL: 'cancelled', FINISH: 'done' } },
    cancelled: { type: 'final' },
    done: { type: 'final' },
  },
});

describe('sendWhileActive', () => {
  it('delivers the event to an actor still running', () => {
    const actor = createActor(machine).start();
    sendWhileActive(actor, { type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('cancelled');
  });

  it('drops it, without XState’s warning, once the actor reached its end', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const actor = createActor(machine).start();
      actor.send({ type: 'FINISH' });
      sendWhileActive(actor, { type: 'CANCEL' });
      expect(actor.getSnapshot().value).toBe('done');
      expect(warn).not.toHaveBeenCalled();
      // What it saves the user from: the same send, made directly, warns.
      actor.send({ type: 'CANCEL' });
      expect(warn).toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
