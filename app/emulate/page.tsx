import type { Metadata } from 'next';
import { EmulateView } from '@/components/views/EmulateView';

export const metadata: Metadata = { title: 'Emulate a message' };

export default function EmulatePage() {
  return <EmulateView />;
}
