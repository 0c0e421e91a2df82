/**
 * Lets the lesson's tour (and "Show me") drive an animated widget's playhead. It must render inside the widget's
 * frame, whose id it registers the transport under; it draws nothing.
 */
import { useStageTransport, type StageTransport } from './stage';

export function TourTransport({ transport }: { transport: StageTransport }) {
  useStageTransport(transport);
  return null;
}
