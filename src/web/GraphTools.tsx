/** The graph's toolbar: fit the whole drawing, zoom, and whether the view follows the run's node. */
export function GraphTools({
  onFit,
  onZoom,
  following,
  onFollow,
}: {
  onFit: () => void;
  onZoom: (factor: number) => void;
  following: boolean;
  onFollow: () => void;
}) {
  return (
    <div className="graph-tools" role="toolbar" aria-label="Graph view">
      <button type="button" id="graph-fit" onClick={onFit}>
        Fit
      </button>
      <button type="button" id="graph-zoom-in" aria-label="Zoom in" onClick={() => onZoom(1.25)}>
        +
      </button>
      <button type="button" id="graph-zoom-out" aria-label="Zoom out" onClick={() => onZoom(1 / 1.25)}>
        −
      </button>
      <button type="button" id="graph-follow" aria-pressed={following} onClick={onFollow}>
        Follow the run
      </button>
    </div>
  );
}
