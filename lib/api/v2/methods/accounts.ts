// (being written)
export {};
