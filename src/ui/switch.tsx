import * as RadixSwitch from '@radix-ui/react-switch';
import { useId } from 'react';

/** An on/off setting, named by its label; Space (or a click on the label) flips it. */
export function Switch({ label, hint, checked, onCheckedChange, disabled }: {
  label: string;
  hint?: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="switch-field">
      <div className="switch-field__text">
        <label htmlFor={id}>{label}</label>
        {hint && (
          <span id={`${id}-hint`} className="field__hint">
            {hint}
          </span>
        )}
      </div>
      <RadixSwitch.Root
        id={id}
        className="switch"
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
      >
        <RadixSwitch.Thumb className="switch__thumb" />
      </RadixSwitch.Root>
    </div>
  );
}
