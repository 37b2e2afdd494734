import { NotFoundState } from '@/components/ui/States';

export default function TxNotFound() {
  return <NotFoundState title="Transaction not found">The index has no transaction with this hash (it may not be indexed yet).</NotFoundState>;
}
