import { useId, useState } from 'react';
import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Icon } from './icon';
import { Popover } from './popover';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * A date, picked from a calendar beside its button (say, when a share link expires). The calendar opens on
 * the chosen day (or today): arrow keys move by day and week, Page Up/Down by month, Enter picks; Escape closes
 * it back onto the button, which then reads the date.
 */
export function DatePicker({ label, value, onChange, min, max }: {
  label: string;
  value: Date | undefined;
  onChange: (date: Date | undefined) => void;
  min?: Date;
  max?: Date;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const disabled = [...(min ? [{ before: min }] : []), ...(max ? [{ after: max }] : [])];
  return (
    <div className="field">
      <span id={`${id}-label`} className="field__label">
        {label}
      </span>
      <Popover
        open={open}
        onOpenChange={setOpen}
        label={label}
        className="date-picker"
        trigger={
          <button type="button" className="btn date-picker__button" aria-labelledby={`${id}-label ${id}-value`}>
            <Icon name="calendar" />
            <span id={`${id}-value`}>{value ? dateFormat.format(value) : 'No date'}</span>
          </button>
        }
      >
        <DayPicker
          mode="single"
          autoFocus
          selected={value}
          defaultMonth={value ?? min}
          startMonth={min}
          endMonth={max}
          disabled={disabled}
          onSelect={(date) => {
            onChange(date);
            setOpen(false);
          }}
        />
      </Popover>
    </div>
  );
}
