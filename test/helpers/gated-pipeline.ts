/** A pipeline that waits at a human gate right after start: A runs `ship`, R goes straight to exit. */
export const GATED_PIPELINE = `digraph gated {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Ship it?"]
  ship [prompt="Ship"]
  exit [shape=Msquare]
  start -> gate
  gate -> ship [label="[A] Approve"]
  gate -> exit [label="[R] Reject"]
  ship -> exit
}`;
