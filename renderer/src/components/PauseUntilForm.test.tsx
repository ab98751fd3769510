import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toDatetimeLocal } from '../lib/format';
import { fixClock } from '../testing/clock';
import { PauseUntilForm } from './PauseUntilForm';


const idle = { isPending: false, isSuccess: false, submittedAt: 0, error: null };

describe('PauseUntilForm', () => {
  it('offers times from now to 14 days ahead, by the clock', () => {
    const now = fixClock('2026-03-10T12:00:00.000Z');
    render(<PauseUntilForm pausedUntilAt={null} hint="h" field="pauseUntilAt" resumeLabel="Clear" mutation={idle} onChange={() => {}} />);
    const picker = screen.getByLabelText('Pause until');
    expect(picker.getAttribute('min')).toBe(toDatetimeLocal(new Date(now)));
    expect(picker.getAttribute('max')).toBe(toDatetimeLocal(new Date(now + 14 * 86_400_000)));
  });

  it('sends the picked time as ISO, refuses an empty one, and lifts a pause with its button', () => {
    const onChange = vi.fn();
    render(<PauseUntilForm pausedUntilAt="2026-03-12T00:00:00.000Z" hint="h" field="pauseUntilAt" resumeLabel="Clear" mutation={idle} onChange={onChange} />);
    expect(screen.getByText(/Paused\. Resumes by itself at/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect(screen.getByText('Choose a date and time')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Pause until'), { target: { value: '2026-03-11T09:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect(onChange).toHaveBeenLastCalledWith(new Date('2026-03-11T09:30').toISOString(), expect.any(Function));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('says a pause without an end lasts until resumed', () => {
    render(<PauseUntilForm pausedUntilAt={null} pausedIndefinitely hint="h" field="pausedUntilAt" resumeLabel="Resume now" mutation={idle} onChange={() => {}} />);
    expect(screen.getByText('Paused until you resume it.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Schedule pause' })).toBeTruthy();
  });
});
