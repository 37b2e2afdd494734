import { NotFoundState } from '@/components/ui/States';

export default function NftItemNotFound() {
  return <NotFoundState title="Not an NFT">The index knows no NFT item at this address, or it is not an address.</NotFoundState>;
}
