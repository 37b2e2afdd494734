import { NotFoundState } from '@/components/ui/States';

export default function JettonNotFound() {
  return <NotFoundState title="Jetton not found">The index knows no jetton master at this address (it may not be a jetton, or not be indexed yet).</NotFoundState>;
}
