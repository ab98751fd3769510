import { REACTION_EMOJI } from '../api/rules.gen';
import './ReactionBar.css';

export type ReactionEmoji = (typeof REACTION_EMOJI)[number];

/** Spoken names of the reaction set, for labels and tooltips. */
export const REACTION_NAMES: Record<ReactionEmoji, string> = { '👍': 'thumbs up', '👀': 'eyes', '🎯': 'on target', '❤️': 'heart', '🚀': 'rocket' };

interface ReactionCount {
  emoji: ReactionEmoji;
  count: number;
  reacted: boolean;
}

/** The five reaction toggles with their counts; the viewer's own reactions are marked. */
export function ReactionBar({ reactions, onReact, pending, error }: { reactions: readonly ReactionCount[]; onReact: (emoji: ReactionEmoji) => void; pending: boolean; error: Error | null }) {
  return (
    <div className="reactions" role="group" aria-label="Reactions">
      {REACTION_EMOJI.map((emoji) => {
        const r = reactions.find((x) => x.emoji === emoji);
        const count = r?.count ?? 0;
        const mine = r?.reacted ?? false;
        return (
          <button
            key={emoji}
            type="button"
            className={`reaction${mine ? ' is-mine' : ''}${count ? ' has-count' : ''}`}
            aria-pressed={mine}
            aria-label={`${REACTION_NAMES[emoji]} ${emoji}${count ? `, ${count}` : ''}`}
            title={mine ? `Remove your ${REACTION_NAMES[emoji]}` : `React with ${REACTION_NAMES[emoji]}`}
            disabled={pending}
            onClick={() => onReact(emoji)}
          >
            <span aria-hidden="true">{emoji}</span>
            {count ? <span className="reaction__count">{count}</span> : null}
          </button>
        );
      })}
      {error ? <span className="inline-error">{error.message}</span> : null}
    </div>
  );
}
