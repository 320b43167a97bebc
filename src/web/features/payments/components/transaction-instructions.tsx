import type { TransactionView } from '#contract/payments';

/** A parsed instruction's fields, e.g. a transfer's source, destination and lamports. */
function InstructionInfo({ info }: { info: Record<string, unknown> }) {
  return (
    <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-xs">
      {Object.entries(info).map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-muted-foreground">{key}</dt>
          <dd className="font-mono break-all">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function TransactionInstructions({ instructions }: { instructions: TransactionView['instructions'] }) {
  return (
    <ol className="grid gap-3">
      {instructions.map((instruction, index) => (
        // Instructions have no identity of their own: their position is what names them.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once loaded
        <li key={index} className="rounded-lg border p-3">
          <p className="text-sm font-medium break-words">
            #{index + 1} {instruction.program}
            {instruction.type && <span className="text-muted-foreground"> · {instruction.type}</span>}
          </p>
          <p className="font-mono text-xs break-all text-muted-foreground">{instruction.programId}</p>
          {instruction.info && <InstructionInfo info={instruction.info} />}
        </li>
      ))}
    </ol>
  );
}
