import { lamportsToSol } from '#contract/money';
import type { TransactionView } from '#contract/payments';
import { Badge } from '#web/components/ui/badge';
import { cn } from '#web/lib/utils';
import { balanceChange } from '../lib/balance-change';

/** Every account the transaction touched, with its SOL balance before, after and the change. */
export function TransactionAccounts({ accounts }: { accounts: TransactionView['accounts'] }) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full min-w-[40rem] text-sm">
        <caption className="sr-only">Accounts and balance changes</caption>
        <thead className="bg-muted/40 text-left text-muted-foreground">
          <tr>
            <th scope="col" className="p-3 font-medium">
              #
            </th>
            <th scope="col" className="p-3 font-medium">
              Address
            </th>
            <th scope="col" className="p-3 text-right font-medium">
              Before (SOL)
            </th>
            <th scope="col" className="p-3 text-right font-medium">
              After (SOL)
            </th>
            <th scope="col" className="p-3 text-right font-medium">
              Change (SOL)
            </th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account, index) => {
            const change = balanceChange(account.preBalance, account.postBalance);
            return (
              <tr key={account.address} className="border-t align-top">
                <td className="p-3 tabular-nums text-muted-foreground">{index}</td>
                <td className="p-3">
                  <span className="font-mono text-xs break-all">{account.address}</span>
                  <span className="mt-1 flex gap-1">
                    {account.signer && <Badge variant="secondary">Signer</Badge>}
                    {account.writable && <Badge variant="outline">Writable</Badge>}
                  </span>
                </td>
                <td className="p-3 text-right tabular-nums">{lamportsToSol(BigInt(account.preBalance))}</td>
                <td className="p-3 text-right tabular-nums">{lamportsToSol(BigInt(account.postBalance))}</td>
                <td
                  className={cn(
                    'p-3 text-right font-medium tabular-nums',
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
