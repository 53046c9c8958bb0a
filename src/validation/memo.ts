/**
 * The memory of `freezeChartDocument` / `freezePatientChart` / `freezeDirectory` (see `frozen.ts`): records,
 * charts and directories that passed the chart check as deep-frozen plain copies made by this package.
 * A WeakSet, so it keeps nothing alive and holds no patient data of its own.
 */
const checked = new WeakSet<object>();

/** Whether `value` is a frozen record, chart or directory that passed the check as a copy made here. */
export function isCheckedFrozen(value: unknown): boolean {
  return typeof value === 'object' && value !== null && checked.has(value);
}

/** Remember a frozen copy that passed the check. Only `frozen.ts` calls this, on copies it made. */
export function rememberChecked(value: object): void {
  checked.add(value);
}
