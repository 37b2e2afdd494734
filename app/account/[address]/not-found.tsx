import { NotFoundState } from '@/components/ui/States';

export default function AccountNotFound() {
  return <NotFoundState title="Not an address">This is not a TON address in any form we know (raw wc:hex, or 48-character user-friendly).</NotFoundState>;
}
