// The Processing Hub's AI instructions and destination (docs/product.md#processing-hub): the user's
// defaults from Settings (GET /api/auth/settings) fill them in, unless already changed on this page.
import { useEffect, useRef, useState } from 'react';
import { MAX_INSTRUCTIONS, type DashboardApi, type Destination } from '../lib/dashboard-api.ts';

export interface ProcessingOptions {
  instructions: string;
  destination: Destination;
  /** Over the ingestion contract's limit: nothing is sent until shortened. */
  tooLong: boolean;
  setInstructions(value: string): void;
  setDestination(value: Destination): void;
}

export function useProcessingOptions(calls: DashboardApi): ProcessingOptions {
  const [instructions, setInstructions] = useState('');
  const [destination, setDestination] = useState<Destination>('auto');
  const touched = useRef({ instructions: false, destination: false });

  useEffect(() => {
    const controller = new AbortController();
    calls
      .settings(controller.signal)
      .then((s) => {
        if (!touched.current.destination) setDestination(s.default_destination);
        if (!touched.current.instructions) setInstructions(s.default_instructions);
      })
      .catch(() => undefined); // no defaults: Auto and no instructions
    return () => controller.abort();
  }, [calls]);

  return {
    instructions,
    destination,
    tooLong: instructions.length > MAX_INSTRUCTIONS,
    setInstructions(value) {
      touched.current.instructions = true;
      setInstructions(value);
    },
    setDestination(value) {
      touched.current.destination = true;
      setDestination(value);
    },
  };
}
