import { lamportsToSol } from '#contract/money';
import type { TransactionView } from '#contract/payments';
import { Badge } from '#web/components/ui/badge';
import { cn } from '#web/lib/utils';
import { balanceChange } from '../lib/balance-change';

/**
 * Every account the transaction touched, with its SOL balance before, after and the change. On a
 * phone the Before and After columns fold into the account's cell, so the table fits 375 px with
 * the change still in its own column.
 */
export function TransactionAccounts({ accounts }: { accounts: TransactionView['accounts'] }) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-sm">
        <caption className="sr-only">Accounts and balance changes</caption>
        <thead className="bg-muted/40 text-left text-muted-foreground">
          <tr>
            <th scope="col" className="p-2 font-medium sm:p-3">
              #
            </th>
            <th scope="col" className="p-2 font-medium sm:p-3">
              Address
            </th>
            <th scope="col" className="hidden p-3 text-right font-medium sm:table-cell">
              Before (SOL)
            </th>
            <th scope="col" className="hidden p-3 text-right font-medium sm:table-cell">
              After (SOL)
            </th>
            <th scope="col" className="p-2 text-right font-medium sm:p-3">
              Change (SOL)
            </th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account, index) => {
            const change = balanceChange(account.preBalance, account.postBalance);
            return (
              <tr key={account.address} className="border-t align-top">
                <td className="p-2 tabular-nums text-muted-foreground sm:p-3">{index}</td>
                <td className="min-w-0 p-2 sm:p-3">
                  <span className="font-mono text-xs break-all">{account.address}</span>
                  <span className="mt-1 flex flex-wrap gap-1">
                    {account.signer && <Badge variant="secondary">Signer</Badge>}
                    {account.writable && <Badge variant="outline">Writable</Badge>}
                  </span>
                  <span className="mt-1 block text-xs text-muted-foreground tabular-nums sm:hidden">
                    Before {lamportsToSol(BigInt(account.preBalance))} · After{' '}
                    {lamportsToSol(BigInt(account.postBalance))}
                  </span>
                </td>
                <td className="hidden p-3 text-right tabular-nums sm:table-cell">
                  {lamportsToSol(BigInt(account.preBalance))}
                </td>
                <td className="hidden p-3 text-right tabular-nums sm:table-cell">
                  {lamportsToSol(BigInt(account.postBalance))}
                </td>
                <td
                  className={cn(
                    'p-2 text-right font-medium tabular-nums sm:p-3',
                    change.startsWith('+') && 'text-success',
                    change.startsWith('-') && 'text-destructive',
                  )}
                >
                  {change}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
