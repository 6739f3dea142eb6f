import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';

export interface TabItem {
  value: string;
  title: ReactNode;
  content: ReactNode;
}

/**
 * Tabs: one Tab stop for the row, arrow keys (Home, End) move between tabs and show each as it is reached,
 * Tab then goes into the shown panel.
 */
export function Tabs({ label, items, value, defaultValue, onValueChange }: {
  /** Names the row of tabs for assistive technology. */
  label: string;
  items: TabItem[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
}) {
  return (
    <RadixTabs.Root className="tabs" value={value} defaultValue={defaultValue ?? items[0]?.value} onValueChange={onValueChange}>
      <RadixTabs.List className="tabs__list" aria-label={label}>
        {items.map((item) => (
          <RadixTabs.Trigger key={item.value} value={item.value} className="tabs__tab">
            {item.title}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value} className="tabs__panel">
          {item.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
